"""One module per way of turning a compiled fact into a question (see base.py for the contract)."""

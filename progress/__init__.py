"""What learners and instructors see of the practice so far: statistics, reviews, exports."""

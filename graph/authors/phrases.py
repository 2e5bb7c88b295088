"""Sentence frames of the offline author. Subject-neutral on purpose: the subject's words come from the
knowledge base, so the same frames serve any textbook."""

JUDGE_STRICT = "{statement}。（　）"
JUDGE_FLEXIBLE = "{person}在办理业务时向同事解释{topic}：“{statement}”这一说法（　）。"

CHOICE_TRUE_STRICT = "关于{topic}，下列说法正确的是（　）。"
CHOICE_FALSE_STRICT = "关于{topic}，下列说法错误的是（　）。"
CHOICE_MULTI_STRICT = "关于{topic}，下列说法正确的有（　）。"
CHOICE_TRUE_FLEXIBLE = "{person}向从业人员咨询“{topic}”方面的问题。从业人员的下列答复中，正确的是（　）。"
CHOICE_FALSE_FLEXIBLE = "{person}向从业人员咨询“{topic}”方面的问题。从业人员的下列答复中，错误的是（　）。"
CHOICE_MULTI_FLEXIBLE = "{person}向从业人员咨询“{topic}”方面的问题。从业人员的下列答复中，正确的有（　）。"
PARAM_STRICT = "根据教材，{topic}中{name}为（　）。"
PARAM_FLEXIBLE = "{person}在实际业务中需要确认{name}。按照“{topic}”的内容，应为（　）。"

CALC_STRICT = "已知{facts}。按照“{topic}”计算，{target}为（　）。"
CALC_FLEXIBLE = "{person}正在办理一笔业务：{facts}。按照“{topic}”计算，{target}为（　）。"
CALC_JUDGE = "已知{facts}，则{target}为{value}。（　）"

PERSONS = ("张先生", "李女士", "王女士", "赵先生", "陈女士", "刘先生", "周女士", "孙先生")

BASIS = "《{path}》：{facts}"
ANALYSIS_TRUE_STATEMENT = "题干表述与教材一致。"
ANALYSIS_FALSE_STATEMENT = "题干把“{original}”改成了“{altered}”，与教材规定不符。"
ANALYSIS_OPTION_FALSE = "选项{letter}把“{original}”改成了“{altered}”，说法错误"
ANALYSIS_OPTION_TRUE = "选项{letter}与教材一致"
ANALYSIS_PARAM = "教材规定{name}为{value}，其余选项为常见的记错数值。"
ANALYSIS_CALC = "按{formula}计算：{steps}，得{target}为{value}。干扰项{mistakes}。"
ANALYSIS_CALC_MISTAKE = "{letter}对应{mistake}"
ANALYSIS_CALC_JUDGE_WRONG = (
    "按{formula}计算：{steps}，得{target}为{value}；题干给出的{shown}是{mistake}的结果。"
)
ANALYSIS_CALC_JUDGE_RIGHT = "按{formula}计算：{steps}，得{target}为{value}，与题干一致。"
CONCLUSION_JUDGE = "该说法{verdict}，本题选{letter}。"
CONCLUSION_CHOICE = "本题选{letters}。"
VERDICT_TRUE = "正确"
VERDICT_FALSE = "错误"

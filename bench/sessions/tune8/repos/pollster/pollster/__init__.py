"""pollster: questions, answer validation, tallying, anonymization, CSV export, HTTP handlers."""

from pollster.questions import Question, QuestionKind, Survey
from pollster.validation import validate_answer
from pollster.tally import plurality, ranked_choice

__all__ = ["Question", "QuestionKind", "Survey", "validate_answer", "plurality", "ranked_choice"]

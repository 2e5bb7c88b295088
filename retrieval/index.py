"""TF-IDF index over the question bank: few-shot examples for a slice and near-duplicate checks for new stems.

Each question is indexed twice from one tokenisation pass: as a whole (stem, options and 考点, which is what
makes a good example for a slice) and as its bare stem (what a newly written stem is compared with). A case
sub-question's case text is left out of both: every sub-question of a case shares it, and mixing it in would
make them look alike and drown their own stems. Rows are L2-normalised, so a dot product is the cosine.

Queries stay fast on large banks by keeping the matrices transposed (feature × question): a query touches
only the postings of its own features, and a precomputed matrix per question type does the type filter.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np
from scipy import sparse

from retrieval.fewshot import select_examples, slice_query_text
from retrieval.models import MotherQuestion, Slice
from retrieval.text import get_tokenizer
from vocabulary.kinds import QUESTION_TYPES, QuestionType

Match = tuple[MotherQuestion, float]
# Few-shot choices remembered, most recently used kept: a slice is written about again and again, and
# vectorising its text is most of what choosing costs.
FEW_SHOT_MEMO = 4096


class _Tfidf:
    """Token counts weighted by smoothed IDF, rows L2-normalised: what scikit-learn's CountVectorizer and
    TfidfTransformer compute with their defaults, written out because importing scikit-learn alone takes
    longer than the command line's whole start-up budget."""

    def __init__(self, analyzer: Callable[[str], Iterable[str]]) -> None:
        self.analyzer = analyzer
        self.vocabulary: dict[str, int] = {}
        self.idf = np.empty(0)

    def count(self, texts: Sequence[str], learn: bool = False) -> sparse.csr_matrix:
        """Counts per known token; `learn` adds the tokens not seen before to the vocabulary."""
        indices: list[int] = []
        indptr = [0]
        for text in texts:
            for token in self.analyzer(text):
                column = self.vocabulary.get(token)
                if column is None and learn:
                    column = self.vocabulary[token] = len(self.vocabulary)
                if column is not None:
                    indices.append(column)
            indptr.append(len(indices))
        shape = (len(texts), len(self.vocabulary))
        counts = sparse.csr_matrix((np.ones(len(indices), dtype=np.float64), indices, indptr), shape=shape)
        counts.sum_duplicates()
        return counts

    def fit(self, counts: sparse.csr_matrix) -> None:
        documents = np.bincount(counts.indices, minlength=counts.shape[1])
        self.idf = np.log((1 + counts.shape[0]) / (1 + documents)) + 1

    def weigh(self, counts: sparse.csr_matrix) -> sparse.csr_matrix:
        weighted = sparse.csr_matrix(counts.multiply(self.idf))
        norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
        norms[norms == 0] = 1
        return sparse.csr_matrix(weighted.multiply(1 / norms[:, None]), dtype=np.float32)


class QuestionIndex:
    def __init__(self, questions: Iterable[MotherQuestion], tokenizer: str = "char_ngram") -> None:
        self.questions: tuple[MotherQuestion, ...] = tuple(questions)
        self.tokenizer = tokenizer
        analyzer = get_tokenizer(tokenizer)
        n = len(self.questions)
        self._tfidf = _Tfidf(analyzer)
        stems = [q.stem for q in self.questions]
        rests = ["\n".join((*q.options, q.point)) for q in self.questions]
        counts = self._tfidf.count(stems + rests, learn=True)
        # No question, or none with a single word character: nothing can ever match.
        self._fitted = bool(self._tfidf.vocabulary)
        stem_counts = counts[:n]
        whole_counts = stem_counts + counts[n:]
        self._tfidf.fit(whole_counts)
        whole = self._tfidf.weigh(whole_counts)
        stem_only = self._tfidf.weigh(stem_counts)

        self._stems_t = stem_only.T.tocsr().astype(np.float32)
        types = np.array([QUESTION_TYPES.index(q.qtype) for q in self.questions], dtype=np.int8)
        self._rows_by_type: dict[str, np.ndarray] = {}
        self._whole_t_by_type: dict[str, sparse.csr_matrix] = {}
        for code, qtype in enumerate(QUESTION_TYPES):
            rows = np.flatnonzero(types == code)
            self._rows_by_type[qtype] = rows
            self._whole_t_by_type[qtype] = whole[rows].T.tocsr().astype(np.float32)

        chapters: dict[tuple[str, ...], int] = {}
        self._chapter_code = np.array(
            [
                chapters.setdefault(q.kb_chapter, len(chapters)) if q.kb_chapter else -1
                for q in self.questions
            ],
            dtype=np.int32,
        )
        self._chapters = chapters
        self._few_shot_memo: OrderedDict[tuple, tuple[MotherQuestion, ...]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.questions)

    def few_shot(self, knowledge: Slice, qtype: QuestionType, k: int = 3) -> list[MotherQuestion]:
        """Example questions for writing a `qtype` question on `knowledge`; see `retrieval.fewshot`."""
        key = (slice_query_text(knowledge), knowledge.chapter, qtype, k)
        chosen = self._few_shot_memo.get(key)
        if chosen is None:
            chosen = tuple(select_examples(self, knowledge, qtype, k))
            while len(self._few_shot_memo) >= FEW_SHOT_MEMO:
                self._few_shot_memo.popitem(last=False)
        self._few_shot_memo[key] = chosen
        self._few_shot_memo.move_to_end(key)
        return list(chosen)

    def rank(
        self,
        text: str,
        qtypes: Sequence[QuestionType] = QUESTION_TYPES,
        k: int = 3,
        chapter: tuple[str, ...] | None = None,
        chapter_bonus: float = 0.0,
        exclude: Collection[int] = (),
    ) -> list[Match]:
        """Questions of the given types by cosine to `text` (whole question text), best first.

        Questions whose kb_chapter is `chapter` are ranked as if `chapter_bonus` more similar; `exclude` holds
        positions in `questions` to leave out, which is how a question is kept from finding itself.
        The score returned is the plain cosine, without the bonus.
        """
        query = self._vector(text)
        rows = np.concatenate([self._rows_by_type[t] for t in qtypes])
        cosines = np.concatenate([_dot(query, self._whole_t_by_type[t]) for t in qtypes])
        keys = cosines.copy()
        code = self._chapters.get(chapter) if chapter else None
        if code is not None and chapter_bonus:
            keys += chapter_bonus * (self._chapter_code[rows] == code)
        if exclude:
            keys[np.isin(rows, np.fromiter(exclude, dtype=np.int64))] = -np.inf
        best = _top(keys, k)
        return [(self.questions[rows[i]], float(cosines[i])) for i in best]

    def nearest(self, stem: str, k: int = 1) -> list[Match]:
        """The k bank questions whose stems are closest to `stem`, with their cosine, best first."""
        cosines = _dot(self._vector(stem), self._stems_t)
        return [(self.questions[i], float(cosines[i])) for i in _top(cosines, k)]

    def is_near_duplicate(self, stem: str, threshold: float = 0.9) -> bool:
        match = self.nearest(stem, 1)
        return bool(match) and match[0][1] >= threshold

    def _vector(self, text: str) -> sparse.csr_matrix:
        if not self._fitted:
            return sparse.csr_matrix((1, 0), dtype=np.float32)
        return self._tfidf.weigh(self._tfidf.count([text]))


def _dot(query: sparse.csr_matrix, transposed: sparse.csr_matrix) -> np.ndarray:
    return np.asarray((query @ transposed).todense(), dtype=np.float64).ravel()


def _top(keys: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k largest keys, ties in position order, skipping excluded (-inf) entries."""
    k = min(k, int(np.isfinite(keys).sum()))
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    kth = np.partition(keys, keys.size - k)[keys.size - k]
    candidates = np.flatnonzero(keys >= kth)
    return candidates[np.argsort(-keys[candidates], kind="stable")][:k]

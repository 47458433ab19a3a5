"""A deterministic synthetic English-like corpus with known relations, for the demo and tests.

Real corpora need a download; this one is generated in seconds and built so that a
word2vec model trained on it visibly solves analogies.  Each related word is the sum
of two ingredients, and the corpus makes both visible through co-occurrence:

* an *identity*, shared by both words of a pair (france and paris both occur with
  "french"; king and queen both occur with "crown"), and
* a *role*, shared by every word on the same side of the relation (every capital occurs
  with "mayor" and "city"; every female word with "she" and "her").

So vec(paris) - vec(france) ~ city-role - nation-role, the same offset for every pair,
which is what 3CosAdd needs: paris - france + italy ~ rome.  Four relations are encoded
(country-capital, male-female, singular-plural, present-past tense), with Zipfian filler
words around them so the text has realistic frequency structure.  ``analogy_questions``
writes the matching questions in the Google ``questions-words.txt`` format.
"""

from itertools import permutations

import numpy as np

from wordvec.io.atomic import atomic_write

# (country, capital, identity words: language/adjective, a landmark, a food)
COUNTRIES = [
    ("france", "paris", "french", "eiffel", "cheese"), ("italy", "rome", "italian", "colosseum", "pasta"),
    ("germany", "berlin", "german", "reichstag", "sausage"), ("spain", "madrid", "spanish", "prado", "paella"),
    ("japan", "tokyo", "japanese", "fuji", "sushi"), ("china", "beijing", "chinese", "wall", "dumplings"),
    ("russia", "moscow", "russian", "kremlin", "borscht"), ("egypt", "cairo", "egyptian", "pyramids", "falafel"),
    ("greece", "athens", "greek", "acropolis", "olives"), ("england", "london", "english", "thames", "tea"),
    ("cuba", "havana", "cuban", "malecon", "rum"), ("peru", "lima", "peruvian", "andes", "ceviche"),
    ("canada", "ottawa", "canadian", "rideau", "syrup"), ("india", "delhi", "indian", "taj", "curry"),
    ("kenya", "nairobi", "kenyan", "safari", "ugali"), ("norway", "oslo", "norwegian", "fjords", "salmon"),
]
# (male, female, identity words)
GENDER = [
    ("king", "queen", "crown", "throne"), ("man", "woman", "adult", "person"), ("boy", "girl", "child", "school"),
    ("father", "mother", "parent", "family"), ("son", "daughter", "offspring", "heir"),
    ("brother", "sister", "sibling", "twin"), ("husband", "wife", "spouse", "wedding"),
    ("uncle", "aunt", "relative", "cousin"), ("prince", "princess", "castle", "royal"),
    ("actor", "actress", "film", "stage"), ("nephew", "niece", "relatives", "visit"),
    ("grandfather", "grandmother", "elderly", "grandchildren"),
]
# (singular, plural, identity words)
PLURALS = [
    ("cat", "cats", "meow", "whiskers"), ("dog", "dogs", "bark", "leash"), ("car", "cars", "engine", "wheel"),
    ("house", "houses", "roof", "door"), ("tree", "trees", "leaves", "forest"), ("bird", "birds", "wing", "nest"),
    ("book", "books", "page", "library"), ("horse", "horses", "saddle", "hoof"), ("apple", "apples", "orchard", "cider"),
    ("river", "rivers", "bank", "current"), ("ship", "ships", "sail", "harbor"), ("song", "songs", "melody", "lyrics"),
    ("key", "keys", "lock", "ring"), ("computer", "computers", "keyboard", "software"),
]
# (present, past, identity words)
TENSES = [
    ("walk", "walked", "park", "feet"), ("eat", "ate", "dinner", "hungry"), ("write", "wrote", "letter", "pen"),
    ("sing", "sang", "choir", "voice"), ("run", "ran", "race", "fast"), ("swim", "swam", "pool", "water"),
    ("buy", "bought", "shop", "money"), ("drive", "drove", "road", "truck"), ("fly", "flew", "airplane", "sky"),
    ("speak", "spoke", "speech", "audience"), ("see", "saw", "view", "eyes"), ("give", "gave", "gift", "wrapped"),
    ("build", "built", "bricks", "builder"), ("teach", "taught", "lesson", "classroom"),
]

# Role contexts: every word on one side of a relation shares these.
ROLES = {
    "country": ["nation", "president", "border", "citizens", "economy", "flag"],
    "capital": ["city", "mayor", "downtown", "streets", "capital", "traffic"],
    "male": ["he", "his", "him", "gentleman", "mr"],
    "female": ["she", "her", "hers", "lady", "mrs"],
    "singular": ["a", "one", "this", "single", "is"],
    "plural": ["many", "two", "these", "several", "are"],
    "present": ["today", "now", "usually", "daily", "always"],
    "past": ["yesterday", "ago", "once", "formerly", "previously"],
}
RELATIONS = [("capital-country", COUNTRIES, "country", "capital"), ("gender", GENDER, "male", "female"),
             ("plural", PLURALS, "singular", "plural"), ("past-tense", TENSES, "present", "past")]
FILLER = ("the of and to in that it was for on with as at by from they be this have or not but what all "
          "were when there can an which their said if do will each about how up out them then so some "
          "would make like into time has look more could go see number no way people my than first been "
          "call who its now find long down day did get come made may part over new sound take only little "
          "work know place year live back give most very after thing our just name good sentence think say "
          "great where help through much before line right too mean old any same tell follow came want show "
          "also around form three small set put end does another well large must big even such because turn "
          "here why ask went men read need land different home us move try kind hand picture again change").split()


def _tables():
    """Index every word once; per relation side, the arrays the sampler draws from."""
    words, index = [], {}

    def ids(tokens):
        for token in tokens:
            if token not in index:
                index[token] = len(words)
                words.append(token)
        return [index[t] for t in tokens]

    sides = []  # per (relation, side): head words [P], their partners [P], identity words [P, 2], role words [R]
    for _, pairs, left_role, right_role in RELATIONS:
        identity = np.array([ids(p[-2:]) for p in pairs])
        for side, role in ((0, left_role), (1, right_role)):
            sides.append((np.array(ids([p[side] for p in pairs])), np.array(ids([p[1 - side] for p in pairs])),
                          identity, np.array(ids(ROLES[role]))))
    filler = np.array(ids(FILLER))
    return words, sides, filler


def generate(tokens=2_000_000, seed=0):
    """About ``tokens`` tokens of sentences, vectorised: ``(grid, words)``.

    ``grid[s]`` holds sentence ``s`` as ids into ``words``, padded with -1 at the end.
    A sentence is its head word, two identity words, two role words, 2-5 Zipfian
    filler words and, 30% of the time, the head's partner, in random order.
    """
    rng = np.random.default_rng(seed)
    words, sides, filler = _tables()
    n = tokens // 8 + 1  # sentences average about 8.3 tokens
    grid = np.full((n, 11), -1, dtype=np.int64)
    side = rng.integers(len(sides), size=n)
    for k, (heads, partners, identity, role) in enumerate(sides):
        rows = np.flatnonzero(side == k)
        pair = rng.integers(heads.size, size=rows.size)
        grid[rows, 0] = heads[pair]
        grid[rows, 1:3] = identity[pair[:, None], rng.integers(2, size=(rows.size, 2))]
        grid[rows, 3:5] = role[rng.integers(role.size, size=(rows.size, 2))]
        tie = rng.random(rows.size) < 0.3
        grid[rows[tie], 10] = partners[pair[tie]]
    zipf = 1.0 / np.arange(1, filler.size + 1)
    fill = rng.choice(filler, size=(n, 5), p=zipf / zipf.sum())
    grid[:, 5:10] = np.where(np.arange(5) < rng.integers(2, 6, size=n)[:, None], fill, -1)
    shuffle = np.argsort(np.where(grid >= 0, rng.random(grid.shape), 2.0), axis=1)  # padding stays last
    grid = np.take_along_axis(grid, shuffle, axis=1)
    keep = np.cumsum((grid >= 0).sum(axis=1)) <= tokens
    return grid[keep], words


def write_corpus(path, tokens=2_000_000, seed=0, sentences_per_line=8):
    """Write about ``tokens`` tokens as text, ``sentences_per_line`` sentences per line (document)."""
    grid, words = generate(tokens, seed)
    vocabulary = np.array(words, dtype=object)
    with atomic_write(path, "w", encoding="utf-8") as handle:
        for start in range(0, len(grid), sentences_per_line):
            rows = grid[start:start + sentences_per_line]
            handle.write(" ".join(vocabulary[rows[rows >= 0]]) + "\n")


def analogy_questions():
    """All analogy questions the corpus encodes, as ``(section, [(a, b, c, d), ...])``."""
    sections = []
    for name, pairs, _, _ in RELATIONS:
        questions = [(p[0], p[1], q[0], q[1]) for p, q in permutations(pairs, 2)]
        sections.append((name, questions))
    return sections


def write_questions(path):
    """Write ``analogy_questions()`` in the Google ``questions-words.txt`` format."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        for name, questions in analogy_questions():
            handle.write(f": {name}\n")
            for question in questions:
                handle.write(" ".join(question) + "\n")

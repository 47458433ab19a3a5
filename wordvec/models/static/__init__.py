"""Static sentence models (Model2Vec's kind): distilled from a sentence transformer,
trained toward it and on pairs; ``StaticModel`` is the class."""

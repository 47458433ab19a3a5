"""Doc2Vec (PV-DBOW and PV-DM): document vectors trained beside word vectors, and inference
for new documents."""

"""Evaluation as data: the protocol (protocol.py), per-problem outcomes and metrics with bootstrap
intervals (outcomes.py, stats.py), the eval.json record and paired comparisons (record.py).
These modules never import torch; running an evaluation lives in evaluation/run.py, weight
checksums in evaluation/checksum.py and the cache of evaluations in evaluation/cache.py.
"""

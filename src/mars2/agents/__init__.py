"""Agents: the Policy protocol, prompts, and generation backends (hf, vllm, openai).

Importing this package is cheap: backends import torch, transformers, vllm lazily.
"""

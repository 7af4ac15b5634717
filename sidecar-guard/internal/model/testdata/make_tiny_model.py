#!/usr/bin/env python3
"""Write a tiny BERT-shaped prompt-injection classifier for the model tests.

Output, in the directory given as the only argument (default: ./tiny next to
this script): config.json, tokenizer.json (WordPiece, ~250 tokens) and
model.onnx (a few KB); beside that directory, unsupported_op.onnx, the same
graph pooling with ReduceSum, an op the pure-Go runtime lacks, and
single_logit.onnx, the same classifier with one output logit. Needs only onnx and numpy (Debian: python3-onnx
python3-numpy); nothing downloads. The output is deterministic.

The graph takes the inputs a BERT export takes (input_ids, attention_mask,
token_type_ids) and computes

    emb    = word_embeddings[input_ids] + type_embeddings[token_type_ids]
    pooled = mean of emb over the tokens the attention mask keeps
    logits = pooled @ W + b                      # shape [batch, 2]

Dimension 0 of a word embedding is TRIGGER_WEIGHT for the trigger words
below and 0 for every other token; W reads only that dimension into the
malicious logit. So the malicious probability rises with the share of
trigger words in a window, and a text without them scores
sigmoid(-BIAS) ~ 0.12.

The label map deliberately puts the malicious class at index 0
({"0": "INJECTION", "1": "SAFE"}): a test that sees trigger words score
higher proves the column was resolved from the label map, not assumed.
"""

import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
TRIGGERS = [
    "ignore", "disregard", "forget", "override", "previous", "instructions",
    "system", "prompt", "reveal", "jailbreak", "pretend", "unrestricted",
    "password", "secret",
]
WORDS = [
    "the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "with",
    "is", "are", "was", "be", "it", "this", "that", "you", "your", "we",
    "our", "i", "my", "me", "all", "any", "please", "thanks", "thank",
    "hello", "hi", "dear", "regards", "best", "meeting", "tomorrow", "today",
    "monday", "friday", "week", "invoice", "attached", "report", "project",
    "team", "lunch", "schedule", "call", "agenda", "budget", "update",
    "review", "draft", "notes", "office", "time", "at", "from", "about",
    "can", "will", "would", "let", "know", "if", "have", "has", "see",
    "send", "email", "new", "now", "rules", "mode", "developer", "assistant",
]
TRIGGER_WEIGHT = 25.0
SCALE = 20.0
BIAS = 2.0
HIDDEN = 8


def vocab():
    tokens = list(SPECIALS)
    tokens += list(".,!?:;'\"()-/@#$%&*+=<>[]_")
    tokens += [str(d) for d in range(10)]
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    tokens += letters + ["##" + c for c in letters] + ["##" + str(d) for d in range(10)]
    for w in TRIGGERS + WORDS:
        if w not in tokens:
            tokens.append(w)
    return {t: i for i, t in enumerate(tokens)}


def tokenizer_json(v):
    special = lambda t: {"SpecialToken": {"id": t, "type_id": 0}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": v[t], "content": t, "single_word": False, "lstrip": False,
             "rstrip": False, "normalized": False, "special": True}
            for t in SPECIALS
        ],
        "normalizer": {"type": "BertNormalizer", "clean_text": True,
                       "handle_chinese_chars": True, "strip_accents": None,
                       "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]")],
            "pair": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]"),
                     {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {
                t: {"id": t, "ids": [v[t]], "tokens": [t]} for t in ("[CLS]", "[SEP]")
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": v},
    }


def model_onnx(v, reduce_op="ReduceMean", logits=2):
    rng = np.random.default_rng(14)
    word = rng.normal(0, 0.1, size=(len(v), HIDDEN)).astype(np.float32)
    word[:, 0] = 0.0
    for t in TRIGGERS:
        word[v[t], 0] = TRIGGER_WEIGHT
    types = np.zeros((2, HIDDEN), dtype=np.float32)
    w = np.zeros((HIDDEN, logits), dtype=np.float32)
    w[0, 0] = SCALE  # column 0 is INJECTION
    b = np.zeros(logits, dtype=np.float32)
    b[0] = -BIAS

    inits = [
        numpy_helper.from_array(word, "word_embeddings"),
        numpy_helper.from_array(types, "type_embeddings"),
        numpy_helper.from_array(w, "classifier_weight"),
        numpy_helper.from_array(b, "classifier_bias"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axis_hidden"),
        numpy_helper.from_array(np.array(1e-6, dtype=np.float32), "eps"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis_tokens"),
    ]
    nodes = [
        helper.make_node("Gather", ["word_embeddings", "input_ids"], ["word"]),
        helper.make_node("Gather", ["type_embeddings", "token_type_ids"], ["type"]),
        helper.make_node("Add", ["word", "type"], ["emb"]),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_f", "axis_hidden"], ["mask3"]),
        helper.make_node("Mul", ["emb", "mask3"], ["masked"]),
        reduce_node(reduce_op, "masked", "sum_share"),
        reduce_node(reduce_op, "mask3", "kept_share"),
        helper.make_node("Max", ["kept_share", "eps"], ["kept_safe"]),
        helper.make_node("Div", ["sum_share", "kept_safe"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "classifier_weight"], ["projected"]),
        helper.make_node("Add", ["projected", "classifier_bias"], ["logits"]),
    ]
    ids = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch_size", "sequence_length"])
    graph = helper.make_graph(
        nodes, "tiny_guard",
        [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch_size", logits])],
        initializer=inits,
    )
    m = helper.make_model(graph, producer_name="make_tiny_model.py",
                          opset_imports=[helper.make_opsetid("", 14)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def reduce_node(op, src, dst):
    """Pool over the token axis. ReduceMean is what the tiny model uses;
    ReduceSum (axes as an input since opset 13) is a standard op the pure-Go
    runtime lacks, which makes the second graph fail at load."""
    if op == "ReduceSum":
        return helper.make_node(op, [src, "axis_tokens"], [dst], keepdims=0)
    return helper.make_node(op, [src], [dst], axes=[1], keepdims=0)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny")
    os.makedirs(out, exist_ok=True)
    v = vocab()
    config = {
        "_name_or_path": "opsboard/tiny-guard",
        "architectures": ["BertForSequenceClassification"],
        "model_type": "bert",
        "hidden_size": HIDDEN,
        "vocab_size": len(v),
        "max_position_embeddings": 512,
        "pad_token_id": 0,
        "id2label": {"0": "INJECTION", "1": "SAFE"},
        "label2id": {"INJECTION": 0, "SAFE": 1},
    }
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")
    with open(os.path.join(out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(v), f, indent=1, sort_keys=True)
        f.write("\n")
    onnx.save(model_onnx(v), os.path.join(out, "model.onnx"))
    # A valid graph the pure-Go runtime cannot run, for the load-time check.
    onnx.save(model_onnx(v, "ReduceSum"), os.path.join(out, "..", "unsupported_op.onnx"))
    # The same classifier with a single-logit head (sigmoid scoring).
    onnx.save(model_onnx(v, logits=1), os.path.join(out, "..", "single_logit.onnx"))


if __name__ == "__main__":
    main()

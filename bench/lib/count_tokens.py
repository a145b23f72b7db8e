"""Counts tokens with a GGUF model's own tokenizer (llama.cpp via llama-cpp-python).

stdin: {"model": PATH, "texts": [..]}; stdout: {"counts": [..]}. Only the vocabulary is
loaded (vocab_only), so this takes well under a second and needs no server. No BOS token and
no special-token parsing: the count of the text itself.
"""
import json
import sys

from llama_cpp import Llama

req = json.load(sys.stdin)
llm = Llama(model_path=req["model"], vocab_only=True, verbose=False)
counts = [len(llm.tokenize(t.encode("utf-8"), add_bos=False, special=False)) for t in req["texts"]]
json.dump({"counts": counts}, sys.stdout)

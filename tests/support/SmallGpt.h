#pragma once
// The small GPT-style model the generator, offload and GUI tests share: 2 layers, h 64, 4 heads,
// ffn 256, V 128, s 16, micro-batch 1, fp16; by default TP2 PP2 DP2 (8 NPUs), 4 micro-batches
// (global batch 8), 1F1B, ZeRO 0, one large bucket. Per NPU (elements): stage 0 embed 5,120 and
// L0 25,184; stage 1 L1 25,184 and head 4,224.
#include "generate/GeneratorSpec.h"

namespace astrolabe::test {

inline generate::GeneratorSpec smallGpt(int tp = 2, int pp = 2, int dp = 2) {
    generate::GeneratorSpec s;
    generate::ModelSpec& m = s.model;
    m.name = "small";
    m.layers = 2;
    m.hidden = 64;
    m.heads = 4;
    m.ffn = 256;
    m.vocabulary = 128;
    m.sequence = 16;
    m.biases = true;
    m.tiedEmbeddings = true;
    m.learnedPositions = true;
    s.training = {1, 8, 2};
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.dp = dp;
    s.parallel.bucketBytes = 1ull << 30;
    return s;
}

} // namespace astrolabe::test

#pragma once
// Named starting points with the splits the literature reports (or, where none is published,
// a common Megatron-style split). Every preset passes validate().
//
//   gpt2-124m        Radford et al. 2019 (12 x 768, 12 heads, vocabulary 50,257); d8
//   gpt2-350m        GPT-2 medium (24 x 1024, 16 heads); t2 p2 d2 to show every kind of traffic
//   llama3.2-1b      Meta 2024 (16 x 2048, GQA 32/8, SwiGLU 8192, tied embeddings); d8
//   olmoe-1b-7b      Muennighoff et al. 2024 (64 experts of 1024, top-8); d8 ep8
//                    (these four are demonstrations: one iteration on 8 NPUs, about a second)
//   gpt3-175b        Brown et al. 2020; split of Narayanan et al. 2021 (t8 p8 d16, 1,024 A100)
//   llama2-70b       Touvron et al. 2023 (GQA 8, SwiGLU); t8 p4 d32
//   llama3-8b        Llama 3 herd 2024 (32 x 4096, GQA 32/8, SwiGLU 14336); d8
//   llama3-70b       Llama 3 herd 2024 (vocabulary 128,256, sequence 8,192); t8 p4 d32
//   llama3-405b      Llama 3 herd 2024; t8 p16 d128 (16,384 NPUs) as reported
//   mixtral-8x7b     Jiang et al. 2024 (8 experts, top-2); t1 p4 d16 ep8, ZeRO-1
//   deepseek-v3      DeepSeek-AI 2024 (MLA, 256 + 1 experts, top-8, 3 dense layers); p16 d128 ep64
//   qwen3-8b         Qwen3 2025 (36 x 4096, GQA 32/8, head 128, SwiGLU 12288); d8
//   qwen3-30b-a3b    Qwen3 2025 (48 x 2048, 128 experts of 768, top-8); d8 ep8
//   transformer-1t   Narayanan et al. 2021 (t8 p64 d6, 3,072 A100)
//   dlrm             Naumov et al. 2019, MLPerf-style Criteo sizes; 8-way data parallel
//   resnet50         He et al. 2016; 64-way data parallel, 32 images per NPU

#include "generate/GeneratorSpec.h"

#include <string>
#include <vector>

namespace astrolabe::generate {

struct ModelPreset {
    std::string name;
    std::string description;
    GeneratorSpec spec;
};

const std::vector<ModelPreset>& modelPresets();
std::vector<std::string> presetNames();
/// Throws astrolabe::Error (Validation) naming the valid presets.
GeneratorSpec presetSpec(const std::string& name);

/// Same architecture: every model field but the name and the sequence length (a training
/// choice that leaves the model what it is).
bool sameArchitecture(const ModelSpec& a, const ModelSpec& b);
/// The name of the model actually built from `origin`: origin's name while the architecture is
/// unchanged, "custom (from GPT-2 124M)" once it differs. A name that already says "custom
/// (from ...)" is not wrapped twice.
std::string builtModelName(const ModelSpec& built, const ModelSpec& origin);

} // namespace astrolabe::generate

#include "generate/ModelPresets.h"

#include "core/Error.h"

#include <tuple>

namespace astrolabe::generate {

namespace {

ComputeSpec a100() {
    return {312.0, 2039.0, 0.6, 80.0};
}
ComputeSpec h100() {
    return {989.0, 3350.0, 0.6, 80.0};
}

GeneratorSpec gptStyle(std::string name, int layers, int hidden, int heads) {
    GeneratorSpec s;
    ModelSpec& m = s.model;
    m.name = std::move(name);
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.ffn = 4 * hidden;
    m.vocabulary = 51200;
    m.sequence = 2048;
    m.biases = true;
    m.tiedEmbeddings = true;
    m.learnedPositions = true;
    s.compute = a100();
    s.parallel.recompute = true; // all of Narayanan et al.'s runs recompute activations
    return s;
}

GeneratorSpec llamaStyle(std::string name, int layers, int hidden, int heads, int kvHeads, int ffn,
                         int vocabulary, int sequence) {
    GeneratorSpec s;
    ModelSpec& m = s.model;
    m.name = std::move(name);
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = kvHeads;
    m.ffn = ffn;
    m.vocabulary = vocabulary;
    m.sequence = sequence;
    m.swiglu = true;
    m.biases = false;
    m.dropout = false;
    s.compute = h100();
    s.training.flashAttention = true;
    s.parallel.sequenceParallel = true;
    s.parallel.zeroStage = 1; // Megatron's distributed optimizer
    return s;
}

void split(GeneratorSpec& s, int tp, int pp, int dp, int ep, int globalBatch) {
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.dp = dp;
    s.parallel.ep = ep;
    s.training.microBatch = 1;
    s.training.globalBatch = globalBatch;
}

/// Small published models for demonstrations: one iteration of a few micro-batches on 8 NPUs
/// generates and simulates in about a second on a laptop. Dimensions are the released
/// checkpoints'; the splits are what one would run on one 8-NPU node.
void addDemonstrationPresets(std::vector<ModelPreset>& out) {
    // GPT-2 (Radford et al. 2019): GELU FFN 4h, LayerNorm with biases, learned positions, tied
    // embeddings, vocabulary 50,257, context 1,024. Data parallel, as nanoGPT trains it.
    GeneratorSpec small = gptStyle("GPT-2 124M", 12, 768, 12);
    small.model.vocabulary = 50257;
    small.model.sequence = 1024;
    small.compute = h100();
    small.parallel.recompute = false;
    GeneratorSpec medium = small;
    medium.model.name = "GPT-2 350M";
    medium.model.layers = 24;
    medium.model.hidden = 1024;
    medium.model.heads = 16;
    medium.model.ffn = 4096;
    split(small, 1, 1, 8, 1, 16);
    out.push_back({"gpt2-124m", "GPT-2 124M (demonstration), data parallel d8", small});
    // Not needed at this size: a 3-D split that shows every kind of traffic on one node.
    split(medium, 2, 2, 2, 1, 16);
    out.push_back({"gpt2-350m",
                   "GPT-2 350M / medium (demonstration), t2 p2 d2 to show TP, PP and DP", medium});

    // Llama 3.2 1B (Meta 2024): GQA 32 / 8 heads, SwiGLU 8,192, RMSNorm, tied embeddings,
    // vocabulary 128,256; 8,192-token pretraining sequences.
    GeneratorSpec llama = llamaStyle("Llama-3.2 1B", 16, 2048, 32, 8, 8192, 128256, 8192);
    llama.model.tiedEmbeddings = true;
    split(llama, 1, 1, 8, 1, 16);
    out.push_back({"llama3.2-1b", "Llama-3.2 1B (demonstration), GQA, d8 ZeRO-1", llama});

    // OLMoE-1B-7B (Muennighoff et al. 2024): 64 experts of FFN 1,024, top-8, no shared expert,
    // every layer MoE, untied embeddings, vocabulary 50,304, 4,096-token sequences. Its QK
    // normalisation is not modelled (65 K parameters). The dense FFN size is unused.
    GeneratorSpec olmoe = llamaStyle("OLMoE-1B-7B", 16, 2048, 16, 0, 1024, 50304, 4096);
    olmoe.model.experts = 64;
    olmoe.model.topK = 8;
    olmoe.model.expertFfn = 1024;
    olmoe.parallel.sequenceParallel = false;
    split(olmoe, 1, 1, 8, 8, 16);
    out.push_back(
        {"olmoe-1b-7b", "OLMoE-1B-7B MoE (demonstration), 64 experts top-8, d8 ep8", olmoe});
}

std::vector<ModelPreset> makePresets() {
    std::vector<ModelPreset> out;
    addDemonstrationPresets(out);

    GeneratorSpec gpt3 = gptStyle("GPT-3 175B", 96, 12288, 96);
    split(gpt3, 8, 8, 16, 1, 1536);
    out.push_back({"gpt3-175b", "GPT-3 175B, t8 p8 d16 (Narayanan et al. 2021)", gpt3});

    GeneratorSpec l2 = llamaStyle("Llama-2 70B", 80, 8192, 64, 8, 28672, 32000, 4096);
    split(l2, 8, 4, 32, 1, 1024);
    out.push_back({"llama2-70b", "Llama-2 70B, GQA, t8 p4 d32", l2});

    // Llama 3 8B (Meta 2024): 32 x 4096, GQA 32 / 8, SwiGLU 14,336, untied embeddings.
    GeneratorSpec l8 = llamaStyle("Llama-3 8B", 32, 4096, 32, 8, 14336, 128256, 8192);
    split(l8, 1, 1, 8, 1, 64);
    out.push_back({"llama3-8b", "Llama-3 8B, GQA, d8 ZeRO-1", l8});

    GeneratorSpec l3 = llamaStyle("Llama-3 70B", 80, 8192, 64, 8, 28672, 128256, 8192);
    split(l3, 8, 4, 32, 1, 2048);
    out.push_back({"llama3-70b", "Llama-3 70B, t8 p4 d32", l3});

    GeneratorSpec l405 = llamaStyle("Llama-3 405B", 126, 16384, 128, 8, 53248, 128256, 8192);
    split(l405, 8, 16, 128, 1, 2048);
    out.push_back({"llama3-405b", "Llama-3 405B, t8 p16 d128 (16,384 NPUs)", l405});

    GeneratorSpec mix = llamaStyle("Mixtral 8x7B", 32, 4096, 32, 8, 14336, 32000, 4096);
    mix.model.experts = 8;
    mix.model.topK = 2;
    mix.model.expertFfn = 14336;
    mix.parallel.sequenceParallel = false;
    split(mix, 1, 4, 16, 8, 1024);
    out.push_back({"mixtral-8x7b", "Mixtral 8x7B MoE, top-2, t1 p4 d16 ep8", mix});

    GeneratorSpec ds = llamaStyle("DeepSeek-V3", 61, 7168, 128, 0, 18432, 129280, 4096);
    ds.model.headDim = 128;
    ds.model.qLoraRank = 1536;
    ds.model.kvLoraRank = 512;
    ds.model.ropeHeadDim = 64;
    ds.model.experts = 256;
    ds.model.topK = 8;
    ds.model.sharedExperts = 1;
    ds.model.expertFfn = 2048;
    ds.model.firstDenseLayers = 3;
    ds.parallel.sequenceParallel = false;
    split(ds, 1, 16, 128, 64, 15360);
    out.push_back({"deepseek-v3", "DeepSeek-V3 671B MoE (MLA), p16 d128 ep64", ds});

    // Qwen3 (Qwen team 2025, the released config.json files): head size 128 whatever the
    // hidden size, GQA, untied embeddings, vocabulary 151,936. Their QK normalisation is not
    // modelled (a few K parameters per layer).
    GeneratorSpec q8 = llamaStyle("Qwen3-8B", 36, 4096, 32, 8, 12288, 151936, 4096);
    q8.model.headDim = 128;
    split(q8, 1, 1, 8, 1, 64);
    out.push_back({"qwen3-8b", "Qwen3-8B, GQA, d8 ZeRO-1", q8});

    // Qwen3-30B-A3B: 48 layers of hidden 2,048, 32 / 4 heads of 128, 128 experts of 768, top-8,
    // no shared expert, every layer MoE.
    GeneratorSpec q30 = llamaStyle("Qwen3-30B-A3B", 48, 2048, 32, 4, 6144, 151936, 4096);
    q30.model.headDim = 128;
    q30.model.experts = 128;
    q30.model.topK = 8;
    q30.model.expertFfn = 768;
    q30.parallel.sequenceParallel = false;
    split(q30, 1, 1, 8, 8, 64);
    out.push_back({"qwen3-30b-a3b", "Qwen3-30B-A3B MoE, 128 experts top-8, d8 ep8", q30});

    // The FRED paper's (Rashidi et al.) Transformer-17B; the seed holds only its abstract, so
    // the dimensions are Microsoft's published 17 B Turing-NLG (Rosset, "Turing-NLG: A
    // 17-billion-parameter language model by Microsoft", 2020, trained with Megatron-LM and
    // DeepSpeed): 78 layers, hidden 4256, 28 heads, 1024-token sequences, GPT-2's vocabulary,
    // model parallelism 4 on 256 GPUs, batch 512.
    GeneratorSpec t17 = gptStyle("Transformer-17B", 78, 4256, 28);
    t17.model.sequence = 1024;
    t17.model.vocabulary = 50257;
    split(t17, 4, 1, 64, 1, 512);
    out.push_back({"transformer-17b", "17B GPT (Turing-NLG), t4 d64 (Rosset 2020)", t17});

    GeneratorSpec t1 = gptStyle("Transformer-1T", 128, 25600, 160);
    split(t1, 8, 64, 6, 1, 3072);
    out.push_back({"transformer-1t", "1T GPT, t8 p64 d6 (Narayanan et al. 2021)", t1});

    GeneratorSpec dlrm;
    dlrm.model.kind = ModelKind::Dlrm;
    dlrm.model.name = "DLRM";
    dlrm.model.denseFeatures = 13;
    dlrm.model.embeddingTables = 26;
    dlrm.model.embeddingDim = 128;
    dlrm.model.embeddingRows = 4000000;
    dlrm.model.bottomMlp = {512, 256, 128};
    dlrm.model.topMlp = {1024, 1024, 512, 256, 1};
    dlrm.training = {8192, 65536, 4, false};
    dlrm.parallel.dp = 8;
    dlrm.compute = h100();
    out.push_back({"dlrm", "DLRM (Criteo-sized), 26 tables, 8-way data parallel", dlrm});

    GeneratorSpec resnet;
    resnet.model.kind = ModelKind::ResNet;
    resnet.model.name = "ResNet-50";
    resnet.model.imageSize = 224;
    resnet.training = {32, 2048, 2, false};
    resnet.parallel.dp = 64;
    resnet.compute = h100();
    out.push_back({"resnet50", "ResNet-50, 64-way data parallel, 32 images per NPU", resnet});
    return out;
}

} // namespace

const std::vector<ModelPreset>& modelPresets() {
    static const std::vector<ModelPreset> presets = makePresets();
    return presets;
}

std::vector<std::string> presetNames() {
    std::vector<std::string> names;
    for (const ModelPreset& p : modelPresets())
        names.push_back(p.name);
    return names;
}

GeneratorSpec presetSpec(const std::string& name) {
    for (const ModelPreset& p : modelPresets())
        if (p.name == name)
            return p.spec;
    const std::string guess = closestMatch(name, presetNames());
    throw Error(ErrorKind::Validation, "unknown model preset \"" + name + "\"",
                SourceLocation{{}, 0, 0, "preset"},
                (guess.empty() ? "" : "did you mean \"" + guess + "\"? ") +
                    "valid presets: " + joinAlternatives(presetNames()));
}

bool sameArchitecture(const ModelSpec& a, const ModelSpec& b) {
    auto fields = [](const ModelSpec& m) {
        return std::tie(m.kind, m.layers, m.hidden, m.heads, m.kvHeads, m.headDim, m.ffn,
                        m.vocabulary, m.swiglu, m.biases, m.dropout, m.tiedEmbeddings,
                        m.learnedPositions, m.qLoraRank, m.kvLoraRank, m.ropeHeadDim, m.experts,
                        m.topK, m.sharedExperts, m.expertFfn, m.firstDenseLayers, m.denseFeatures,
                        m.embeddingTables, m.embeddingDim, m.embeddingRows, m.bottomMlp, m.topMlp,
                        m.imageSize);
    };
    return fields(a) == fields(b);
}

std::string builtModelName(const ModelSpec& built, const ModelSpec& origin) {
    const std::string base = origin.name.empty() ? "a model" : origin.name;
    if (sameArchitecture(built, origin))
        return origin.name;
    if (base.rfind("custom (from ", 0) == 0)
        return base;
    return "custom (from " + base + ")";
}

} // namespace astrolabe::generate

#include "plan/MegatronArgs.h"

namespace astrolabe::plan {
namespace {

std::string flag(const std::string& name, long value) {
    return "--" + name + " " + std::to_string(value);
}

} // namespace

std::vector<std::string> megatronArguments(const generate::GeneratorSpec& spec) {
    const generate::ModelSpec& m = spec.model;
    const generate::ParallelSpec& p = spec.parallel;
    std::vector<std::string> out{
        flag("tensor-model-parallel-size", p.tp),
        flag("pipeline-model-parallel-size", p.pp),
        flag("context-parallel-size", p.cp),
    };
    if (m.isMoe())
        out.push_back(flag("expert-model-parallel-size", p.ep));
    if (p.virtualStages > 1)
        out.push_back(
            flag("num-layers-per-virtual-pipeline-stage", m.layers / (p.pp * p.virtualStages)));
    if (p.sequenceParallel && p.tp > 1)
        out.push_back("--sequence-parallel");
    out.push_back(flag("micro-batch-size", spec.training.microBatch));
    out.push_back(flag("global-batch-size", spec.training.globalBatch));
    if (p.recompute) {
        out.push_back("--recompute-granularity full");
        out.push_back("--recompute-method uniform");
        out.push_back(flag("recompute-num-layers", 1));
    } else if (p.selectiveRecompute) {
        out.push_back("--recompute-granularity selective");
    }
    if (p.zeroStage == 1)
        out.push_back("--use-distributed-optimizer");
    out.push_back(flag("num-layers", m.layers));
    out.push_back(flag("hidden-size", m.hidden));
    out.push_back(flag("ffn-hidden-size", m.ffn));
    out.push_back(flag("num-attention-heads", m.heads));
    if (m.kvHeadCount() != m.heads) {
        out.push_back("--group-query-attention");
        out.push_back(flag("num-query-groups", m.kvHeadCount()));
    }
    out.push_back(flag("seq-length", m.sequence));
    out.push_back(flag("max-position-embeddings", m.sequence));
    // Megatron's defaults are GPT's: LayerNorm, biases, learned absolute positions.
    if (!m.biases) {
        out.push_back("--normalization RMSNorm");
        out.push_back("--disable-bias-linear");
    }
    if (!m.learnedPositions)
        out.push_back("--position-embedding-type rope");
    if (m.swiglu)
        out.push_back("--swiglu");
    if (!m.tiedEmbeddings)
        out.push_back("--untie-embeddings-and-output-weights");
    if (!m.dropout) // Megatron's default is 0.1 for both
        out.push_back("--attention-dropout 0.0 --hidden-dropout 0.0");
    if (m.isMoe()) {
        out.push_back(flag("num-experts", m.experts));
        out.push_back(flag("moe-router-topk", m.topK));
    }
    // The gradients as modelled: Megatron with --bf16 alone keeps and reduces them in fp32
    // (training.fp32Gradients); --grad-reduce-in-bf16 keeps them in 16 bits, ZeRO's 2 + 2 + 12.
    if (spec.training.bytesPerElement == 2) {
        out.push_back("--bf16");
        if (!spec.training.fp32Gradients)
            out.push_back("--grad-reduce-in-bf16");
    }
    if (spec.training.flashAttention)
        out.push_back("--use-flash-attn");
    if (p.zeroStage >= 2)
        out.push_back("# ZeRO " + std::to_string(p.zeroStage) +
                      ": no Megatron flag; DeepSpeed zero_optimization.stage " +
                      std::to_string(p.zeroStage) +
                      (p.zeroStage == 3 ? " (or Megatron-core's --use-torch-fsdp2)" : ""));
    if (spec.offload.optimizer != generate::OffloadTier::None)
        out.push_back(std::string("# optimizer states offloaded (") +
                      generate::offloadTierName(spec.offload.optimizer) +
                      "): DeepSpeed zero_optimization.offload_optimizer; Megatron-core "
                      "--optimizer-cpu-offload for host memory");
    if (p.placement != "tp,dp,pp")
        out.push_back("# rank order " + p.placement +
                      " (innermost first); Megatron's default is tp,dp,pp");
    return out;
}

std::vector<std::string> nemoOverrides(const generate::GeneratorSpec& spec) {
    const generate::ParallelSpec& p = spec.parallel;
    auto set = [](const std::string& key, const std::string& value) {
        return "model." + key + "=" + value;
    };
    std::vector<std::string> out{
        set("tensor_model_parallel_size", std::to_string(p.tp)),
        set("pipeline_model_parallel_size", std::to_string(p.pp)),
        set("context_parallel_size", std::to_string(p.cp)),
    };
    if (spec.model.isMoe())
        out.push_back(set("expert_model_parallel_size", std::to_string(p.ep)));
    out.push_back(set("virtual_pipeline_model_parallel_size",
                      p.virtualStages > 1 ? std::to_string(p.virtualStages) : "null"));
    out.push_back(set("sequence_parallel", p.sequenceParallel && p.tp > 1 ? "true" : "false"));
    out.push_back(set("micro_batch_size", std::to_string(spec.training.microBatch)));
    out.push_back(set("global_batch_size", std::to_string(spec.training.globalBatch)));
    if (p.recompute) {
        out.push_back(set("activations_checkpoint_granularity", "full"));
        out.push_back(set("activations_checkpoint_method", "uniform"));
        out.push_back(set("activations_checkpoint_num_layers", "1"));
    } else if (p.selectiveRecompute) {
        out.push_back(set("activations_checkpoint_granularity", "selective"));
    } else {
        out.push_back(set("activations_checkpoint_granularity", "null"));
    }
    // ZeRO 1 and 2: the distributed optimizer shards the states (and the gradients it reduces
    // into them); ZeRO 3 shards the weights too, which is NeMo's FSDP.
    if (p.zeroStage == 3) {
        out.push_back(set("fsdp", "true"));
        out.push_back(set("fsdp_sharding_strategy", "full"));
        out.push_back(set("optim.name", "fused_adam"));
    } else {
        out.push_back(
            set("optim.name", p.zeroStage >= 1 ? "distributed_fused_adam" : "fused_adam"));
    }
    const generate::ModelSpec& m = spec.model;
    if (!m.biases) {
        out.push_back(set("normalization", "rmsnorm"));
        out.push_back(set("bias", "false"));
    }
    if (!m.learnedPositions)
        out.push_back(set("position_embedding_type", "rope"));
    if (m.swiglu)
        out.push_back(set("activation", "fast-swiglu"));
    if (!m.dropout) { // NeMo's GPT defaults are 0.1
        out.push_back(set("attention_dropout", "0.0"));
        out.push_back(set("hidden_dropout", "0.0"));
    }
    return out;
}

} // namespace astrolabe::plan

#pragma once
// The model as one NPU sees it: per layer, the ordered forward and backward steps (compute
// blocks and the collectives between them) and the parameters whose gradients are synchronised.
// Costs are per rank and per micro-batch, already divided by tp / ep. The trace builder turns
// this program into Chakra nodes; the figures use the same numbers, so both always agree.

#include "generate/GeneratorSpec.h"
#include "generate/OperationCost.h"
#include "trace/WorkloadNode.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::generate {

/// Which communicator a collective or a gradient synchronisation runs over.
enum class GroupKind : uint8_t {
    None,      ///< not synchronised (model-parallel embedding tables)
    Tp,        ///< tensor-parallel group
    Pp,        ///< pipeline stages of one model replica (SEND/RECV only; listed for completeness)
    Dp,        ///< data-parallel replicas of a tp shard (with cp > 1: dp x cp, Megatron's)
    Ep,        ///< expert-parallel group (a block of ep consecutive dp indices)
    ExpertDp,  ///< ranks holding the same experts: same pp, same dp mod ep, every tp
    StageDp,   ///< every rank of one pipeline stage (tp x dp): tp-replicated MoE parameters
    World,     ///< every NPU
    Embedding, ///< first and last pipeline stage of one (tp, dp): tied word embeddings
    Cp,        ///< context-parallel group: the ranks sharing one sequence (same tp, dp, pp)
};
/// How many GroupKind values there are: the size of arrays indexed by a group kind.
inline constexpr size_t kGroupKindCount = static_cast<size_t>(GroupKind::Cp) + 1;
const char* groupKindName(GroupKind kind);

struct Step {
    enum class Kind : uint8_t { Compute, Collective };
    Kind kind = Kind::Compute;
    std::string name;
    double flops =
        0; ///< matrix-multiply FLOPs (2 per multiply-add); elementwise work is bytes only
    double bytes = 0; ///< HBM traffic: weights, activations read and written
    CollectiveType collective = CollectiveType::AllReduce;
    uint64_t commBytes = 0; ///< Chakra comm_size: all-gather = per-rank shard, others = full input
    GroupKind group = GroupKind::None;
    /// A collective that runs beside the next step instead of before it (context parallelism's
    /// key/value exchange beside the attention core); the step after that waits for both.
    bool overlapsNext = false;
    /// A forward step run again in the backward pass (selective recomputation's attention core):
    /// hardware FLOPs, not model FLOPs.
    bool recomputed = false;
    /// The kernels of a compute step, for the operation model (empty: it uses the roofline).
    std::vector<Kernel> kernels;

    static Step compute(std::string name, double flops, double bytes,
                        std::vector<Kernel> kernels = {}) {
        Step s;
        s.name = std::move(name);
        s.flops = flops;
        s.bytes = bytes;
        s.kernels = std::move(kernels);
        return s;
    }
    static Step coll(std::string name, CollectiveType type, uint64_t commBytes, GroupKind group) {
        Step s;
        s.kind = Kind::Collective;
        s.name = std::move(name);
        s.collective = type;
        s.commBytes = commBytes;
        s.group = group;
        return s;
    }
};

/// Parameters held by one rank (elements), and the group their gradients are reduced over.
struct ParamShare {
    uint64_t elements = 0;
    GroupKind group = GroupKind::Dp;
};

struct LayerProgram {
    std::string name; ///< "L12", "embed", "head"
    std::vector<Step> forward;
    std::vector<Step> backward; ///< in execution order (reverse of the forward blocks)
    std::vector<ParamShare> params;
    /// Activation bytes kept per micro-batch for the backward pass (ActivationMemory.h).
    double activationBytes = 0;
    /// Re-run in the backward pass under full recomputation (Megatron skips embedding and head).
    bool recomputable = true;
};

struct ModelProgram {
    std::vector<LayerProgram> layers;     ///< model order, pseudo-layers included
    std::vector<std::vector<int>> chunks; ///< global model chunk j -> indices into layers
    uint64_t boundaryBytes = 0; ///< pipeline SEND/RECV size per micro-batch (both directions)
    double extraActivationBytesLastStage = 0; ///< fp32 logits kept for the loss, per micro-batch
    /// The logits in the training precision, alive beside their fp32 copy while the loss runs
    /// forward (and their gradient beside it while it runs backward): one micro-batch's at a
    /// time, on the last stage. 0 when training in fp32, where the copy is the tensor itself.
    double transientBytesLastStage = 0;
    /// Tied embeddings over pp > 1: the first and the last stage each hold the table and
    /// all-reduce its gradient (this many bytes) before the optimizer step, as Megatron does.
    uint64_t tiedEmbeddingGradientBytes = 0;
};

} // namespace astrolabe::generate

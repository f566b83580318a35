#pragma once
// Turns a per-rank ModelProgram into one Chakra trace per NPU.
//
// Per rank, the pipeline order of its stage (PipelineOrder.h) is walked once; each pass emits
//   [RECV from the previous chunk's stage]  (ctrl dep: the end of the previous pass: the receive
//                                            is posted when the pass would start)
//   the layers' steps in order, each a data dependency of the next (compute blocks and the
//   blocking tp / ep collectives between them; with recompute a backward pass first re-runs the
//   layer's forward steps)
//   [SEND to the next chunk's stage]        (data dep: the pass's last step; nothing waits on it)
// Tags are unique per (direction, boundary, micro-batch): forward 1 + 2(j m + mb), backward
// 2 + 2(j m + mb), where j is the sending side's lower global chunk. Both sides use the same
// size, so each SEND matches exactly one RECV.
//
// Gradient synchronisation (data parallel):
// * ZeRO 0: buckets of bucketBytes, filled in backward layer order during the last micro-batch's
//   backward pass of each chunk; an all-reduce per bucket, issued as soon as its last layer's
//   gradients exist (overlapping the rest of the backward pass).
// * ZeRO 1 and 2: the same buckets reduce-scatter (comm_size = bucket); after the optimizer step
//   an all-gather per bucket (comm_size = bucket / group size) brings the updated weights back.
//   Stages 1 and 2 differ only in memory.
// * ZeRO 3 / FSDP: per layer and micro-batch, all-gather the weights before the forward (prefetched
//   one layer ahead) and again before the backward, and reduce-scatter its gradients after it.
// The optimizer step (memory-bound Adam over this rank's shard) waits for every reduction. With
// tied embeddings and pp > 1, the first and last stage then all-reduce the embedding gradient
// (V h / tp elements) between them, before the step.
//
// Offload (ZeRO-Infinity, GeneratorSpec::offload; the tier only names the nodes, the access time
// is the platform's remote memory model's):
// * parameters: each pass loads every layer's weight shard (MEM_LOAD, tensor_size = its bytes on
//   this NPU) before the layer runs; the load of the layer `prefetch` positions ahead is issued
//   when a layer starts (the first `prefetch` at the start of the pass, ctrl-free), and a layer's
//   first step depends on its own load (ZeRO-3's all-gathers too). After the optimizer step each
//   layer's updated weights are written back (MEM_STORE, the loads' bytes), once its step is done
//   (ZeRO-1/2: and the all-gathers of the buckets holding it); nothing waits for the stores.
// * gradients: in a chunk's last backward pass, each layer's gradient shard is stored
//   (MEM_STORE) once the reductions covering it (its bucket, ZeRO-3's reduce-scatter) are issued;
//   the optimizer waits for the stores.
// * optimizer states: the step is split per layer: MEM_LOAD (fp32 master, m, v) -> step ->
//   MEM_STORE, the steps chained; the ZeRO-1/2 all-gathers follow the last step. With
//   offload.step = cpu each step is a CPU node (is_cpu_op, ZeRO-Offload's CPU Adam) of the same
//   bytes, replayed for bytes / offload.cpuGBps.
//
// Tensor lists (GeneratorSpec::output.tensors, off by default), for local memory tracking:
// * model states kept in HBM, per layer ("L3.weights", "L3.grads", "L3.optimizer", the sizes of
//   ModelStates.h; offloaded ones not listed): written by no node, so live from time 0; read by
//   the first compute of every pass of the layer (forward: weights; backward: weights and
//   gradients) and by the optimizer step (all three; offloaded optimizer: each layer's step its
//   weights and gradients);
// * activations: the first compute of layer L3's forward pass of micro-batch k outputs
//   "L3.act.mb<k>" (LayerProgram::activationBytes), the last compute of its backward pass of k
//   reads it; the last chunk's last layer does the same with "logits.mb<k>"
//   (ModelProgram::extraActivationBytesLastStage), and the first compute of its forward and
//   backward passes outputs "logits16.mb<k>" and "dlogits16.mb<k>", read by no node, so live
//   while that compute runs (ModelProgram::transientBytesLastStage).
// The measured peak then equals ModelFigures' memory estimate (tests: GeneratedTensors).
//
// COMP nodes carry num_ops (matrix FLOPs, at least 1 so roofline never divides by zero),
// tensor_size (bytes) and duration_micros = max(flops / peak, bytes / HBM) / efficiency.

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "generate/RankLayout.h"
#include "trace/WorkloadNode.h"

namespace astrolabe::generate {

class TraceBuilder {
public:
    /// Keeps references: the three arguments must outlive the builder.
    TraceBuilder(const GeneratorSpec& spec, const ModelProgram& program, const RankLayout& layout);

    WorkloadTrace buildRank(int rank) const;

    /// Forward-pass tag of micro-batch mb crossing from global chunk j to j + 1 (backward: +1).
    uint32_t forwardTag(int chunk, int microBatch) const;
    uint32_t backwardTag(int chunk, int microBatch) const {
        return forwardTag(chunk, microBatch) + 1;
    }

private:
    const GeneratorSpec& m_spec;
    const ModelProgram& m_program;
    const RankLayout& m_layout;
    int m_microBatches;
};

} // namespace astrolabe::generate

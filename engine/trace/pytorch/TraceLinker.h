#pragma once
// PyTorch's execution trace joined with its Kineto (profiler) trace into one rank's Chakra
// trace, the way Chakra's trace linker joins them: an operator of the execution trace is the
// Kineto host event with its record-function id, a GPU kernel belongs to the operator around
// the runtime call that launched it (same correlation). Rules in docs/real-traces.md:
//
// * every operator found in both traces becomes a host node (is_cpu_op) of its own time: its
//   Kineto duration less the time of the operators nested in it, so that nested operators
//   (aten::linear holding aten::addmm) count once; it follows the previous operator of its
//   host thread;
// * every GPU activity becomes a node with its measured duration, classified and sized as a
//   profiler import does (KinetoImport.h, CommParams.h); it follows the previous activity of
//   its stream and its launching operator;
// * node ids are in start order, a kernel placed no earlier than its launcher and its stream's
//   previous activity, so every dependency points to a smaller id.

#include "trace/WorkloadNode.h"
#include "trace/kineto/KinetoImport.h"
#include "trace/kineto/KinetoTrace.h"
#include "trace/pytorch/ExecutionTrace.h"

#include <cstddef>

namespace astrolabe::pytorch {

struct LinkedTrace {
    WorkloadTrace trace;
    size_t etOperators = 0;    ///< nodes of the execution trace
    size_t hostOps = 0;        ///< ... found in the Kineto trace: host nodes
    size_t unmatched = 0;      ///< ... not found (the observer's root and thread nodes, ...)
    size_t kernels = 0;        ///< GPU activities
    size_t launchedByOp = 0;   ///< ... attached to the operator that launched them
    size_t outsideOps = 0;     ///< ... launched outside every linked operator
    double hostTimeUs = 0;     ///< the host nodes' time (own time, nesting counted once)
    double nestedTimeUs = 0;   ///< time of nested operators not counted twice
    bool byExternalId = false; ///< keys are External ids (PyTorch before "Record function id")
    kineto::CommCounts comm;
};

/// Links the two traces. Throws ErrorList (kind Input) naming the event or node when a
/// record-function id is used twice in either trace, or when a kernel's correlation names no
/// runtime call of the Kineto trace.
LinkedTrace linkTraces(const ExecutionTrace& et, const kineto::KinetoTrace& kineto);

} // namespace astrolabe::pytorch

#pragma once
// A synthesized schedule (tacos/Synthesizer.h) as something the engine runs and tools read
// (docs/tacos.md, "Export"):
//
//   * one WorkloadTrace per NPU of sends and receives (the custom-collective form; written as
//     Chakra ET it is a `custom-algorithms` prefix),
//   * MSCCL-IR XML that collective/MscclXml.h reads back into exactly those traces,
//   * the per-link schedule as CSV or as a text table (which chunk on which link in which step).
//
// Both program forms come from one threadblock plan per NPU: a send threadblock per outgoing
// link and a receive threadblock per incoming link, steps in schedule order (so a link carries
// its chunks one after another, as in the TEN). A send of chunk k depends on the last receive of
// k at that NPU; a receive of k depends on the previous receive of k there. The chain makes a
// reduce-scatter send wait for every contribution with one dependency per step, which is all
// MSCCL-IR can say. Channel = the link's index among parallel links of the same NPU pair.
// There are no reduction computes ("r" steps, not "rrc"): like the built-in algorithms.

#include "tacos/Synthesizer.h"
#include "trace/WorkloadNode.h"

#include <string>
#include <vector>

namespace astrolabe {

/// One trace per NPU; node ids, names and dependencies as parseMscclXml() gives for the XML.
std::vector<WorkloadTrace> scheduleTraces(const Schedule& schedule);

/// MSCCL-IR XML (coll allreduce / reducescatter / allgather). Throws astrolabe::Error
/// (Unsupported) for an all-gather of more than one chunk per NPU: the converter's all-gather
/// rule sends the whole collective size per step.
std::string scheduleMscclXml(const Schedule& schedule, const std::string& name);

/// phase,step,start_ns,end_ns,link,src,dst,chunk: one row per chunk on a link, in start order.
std::string scheduleCsv(const Schedule& schedule);

/// Rows: links; columns: steps; cells: the chunk that starts on the link in that step ("."
/// when none). Only the first `maxSteps` steps and `maxLinks` links; says what it left out.
/// Rows are named "a->b" (a direct link) or "a=>b" (a link through switches).
std::string scheduleTable(const Schedule& schedule, int maxSteps = 32, int maxLinks = 64);

} // namespace astrolabe

#pragma once
// Where one request of a serving run spent its time, for the Serving tab's details: its phases,
// the replicas it ran on, its KV transfer and the link it crossed, and its batch companions.
//
// Companions are read from the stored records, not from each iteration: the requests resident
// on the same replica (scheduled and not yet gone) during this request's prefill, and during
// its decode. Continuous batching runs every resident request in each iteration up to the
// batch limit, so these are the requests it could share iterations with.

#include "serving/ServingResult.h"

#include <string>
#include <vector>

namespace astrolabe::widgets {

struct RequestPathInfo {
    int request = -1;
    double queueing = 0, prefill = 0, transfer = 0, decode = 0; ///< seconds
    int prefillReplica = -1, decodeReplica = -1;
    std::vector<int> prefillCompanions; ///< ascending, without the request itself
    std::vector<int> decodeCompanions;  ///< the same replica as prefill when aggregated
};

/// O(requests). `request` must be a valid index.
RequestPathInfo requestPath(const serving::ServingResult& result, int request);
/// Lines for people: phases in ms, replicas with their pool, the KV transfer and its link,
/// the companions' count and the first few of them.
std::vector<std::string> describePath(const serving::ServingResult& result,
                                      const RequestPathInfo& path);

} // namespace astrolabe::widgets

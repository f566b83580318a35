#include "tacos/ScheduleExport.h"

#include "core/Collectives.h"
#include "core/Error.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace astrolabe {

namespace {

struct PlanStep {
    bool send = false;
    int32_t chunk = 0;
    int32_t depTb = -1, depStep = -1; ///< the one cross-threadblock dependency
    bool hasDep = false;              ///< another step depends on this one
};

struct PlanTb {
    int32_t sendPeer = -1, recvPeer = -1, channel = 0;
    std::vector<PlanStep> steps;
};

/// Per NPU, its threadblocks (see the header); index = the tb id.
using Plan = std::vector<std::vector<PlanTb>>;

Plan buildPlan(const Schedule& s) {
    Plan plan(static_cast<size_t>(s.npus));
    const size_t links = s.links.size();
    std::vector<int32_t> sendTb(links), recvTb(links);
    std::map<std::pair<int32_t, int32_t>, int32_t> parallel;
    std::vector<int32_t> channel(links);
    for (size_t l = 0; l < links; ++l)
        channel[l] = parallel[{s.links[l].src, s.links[l].dst}]++;
    for (size_t l = 0; l < links; ++l) {
        auto& tbs = plan[static_cast<size_t>(s.links[l].src)];
        sendTb[l] = static_cast<int32_t>(tbs.size());
        tbs.push_back({s.links[l].dst, -1, channel[l], {}});
    }
    for (size_t l = 0; l < links; ++l) {
        auto& tbs = plan[static_cast<size_t>(s.links[l].dst)];
        recvTb[l] = static_cast<int32_t>(tbs.size());
        tbs.push_back({-1, s.links[l].src, channel[l], {}});
    }
    // Events: a send at its start, its receive at its end; receives first at equal times so
    // that a send waits for what arrived at the moment it starts.
    struct Event {
        double time;
        bool send;
        uint32_t index;
    };
    std::vector<Event> events;
    events.reserve(s.sends.size() * 2);
    for (size_t i = 0; i < s.sends.size(); ++i) {
        events.push_back({s.sends[i].startNs, true, static_cast<uint32_t>(i)});
        events.push_back({s.sends[i].endNs, false, static_cast<uint32_t>(i)});
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.time < b.time || (a.time == b.time && !a.send && b.send);
    });
    // Last receive of chunk k at NPU n: (tb << 32 | step), -1 when none.
    const size_t chunks = static_cast<size_t>(s.chunkCount());
    std::vector<int64_t> lastRecv(static_cast<size_t>(s.npus) * chunks, -1);
    for (const Event& e : events) {
        const ChunkSend& c = s.sends[e.index];
        const SynthLink& link = s.links[static_cast<size_t>(c.link)];
        const int32_t npu = e.send ? link.src : link.dst;
        auto& tbs = plan[static_cast<size_t>(npu)];
        const int32_t tb = e.send ? sendTb[size_t(c.link)] : recvTb[size_t(c.link)];
        PlanStep step;
        step.send = e.send;
        step.chunk = c.chunk;
        int64_t& last = lastRecv[static_cast<size_t>(npu) * chunks + static_cast<size_t>(c.chunk)];
        if (last >= 0) {
            step.depTb = static_cast<int32_t>(last >> 32);
            step.depStep = static_cast<int32_t>(last & 0xffffffff);
            tbs[size_t(step.depTb)].steps[size_t(step.depStep)].hasDep = true;
        }
        auto& steps = tbs[static_cast<size_t>(tb)].steps;
        if (!e.send)
            last = (int64_t{tb} << 32) | static_cast<int64_t>(steps.size());
        steps.push_back(step);
    }
    return plan;
}

const char* mscclCollective(SynthesisKind kind) {
    switch (kind) {
    case SynthesisKind::AllGather:
        return namesOf(CollectiveType::AllGather).msccl;
    case SynthesisKind::ReduceScatter:
        return namesOf(CollectiveType::ReduceScatter).msccl;
    case SynthesisKind::AllReduce:
        break;
    }
    return namesOf(CollectiveType::AllReduce).msccl;
}

} // namespace

std::vector<WorkloadTrace> scheduleTraces(const Schedule& s) {
    const Plan plan = buildPlan(s);
    std::vector<WorkloadTrace> traces(plan.size());
    for (size_t gpu = 0; gpu < plan.size(); ++gpu) {
        WorkloadTrace& trace = traces[gpu];
        trace.file = "TACOS " + std::string(synthesisKindName(s.kind)) + " (npu " +
                     std::to_string(gpu) + ")";
        // Node ids in threadblock order, as the MSCCL-IR reader numbers them.
        std::vector<uint64_t> first(plan[gpu].size());
        uint64_t next = 0;
        for (size_t tb = 0; tb < plan[gpu].size(); ++tb) {
            first[tb] = next;
            next += plan[gpu][tb].steps.size();
        }
        trace.nodes.reserve(next);
        for (size_t tb = 0; tb < plan[gpu].size(); ++tb) {
            const PlanTb& t = plan[gpu][tb];
            for (size_t i = 0; i < t.steps.size(); ++i) {
                const PlanStep& p = t.steps[i];
                WorkloadNode n;
                n.id = first[tb] + i;
                n.type = p.send ? NodeType::CommSend : NodeType::CommRecv;
                n.name = (p.send ? "s_tb" : "r_tb") + std::to_string(tb) + "_s" + std::to_string(i);
                if (i > 0)
                    n.dataDeps.push_back(n.id - 1);
                if (p.depTb >= 0)
                    n.dataDeps.push_back(first[size_t(p.depTb)] + size_t(p.depStep));
                n.hasCommTag = n.hasCommSize = true;
                n.commTag = static_cast<uint32_t>(t.channel);
                n.commSize = s.chunkBytes;
                if (p.send) {
                    n.hasCommDst = true;
                    n.commDst = static_cast<uint32_t>(t.sendPeer);
                } else {
                    n.hasCommSrc = true;
                    n.commSrc = static_cast<uint32_t>(t.recvPeer);
                }
                trace.nodes.push_back(std::move(n));
            }
        }
    }
    return traces;
}

std::string scheduleMscclXml(const Schedule& s, const std::string& name) {
    if (s.kind == SynthesisKind::AllGather && s.chunksPerNpu != 1)
        throw Error(ErrorKind::Unsupported,
                    "MSCCL-IR all-gather takes the whole collective size as its chunk, so it can "
                    "only say an all-gather of 1 chunk per NPU; this one has " +
                        std::to_string(s.chunksPerNpu),
                    {{}, 0, 0, "chunks"}, "synthesize with --chunks 1, or export Chakra ET");
    const Plan plan = buildPlan(s);
    const int inChunks = s.kind == SynthesisKind::AllGather ? 1 : s.chunkCount();
    const int outChunks = s.kind == SynthesisKind::ReduceScatter ? s.chunksPerNpu : s.chunkCount();
    int channels = 1;
    for (const auto& tbs : plan)
        for (const PlanTb& t : tbs)
            channels = std::max(channels, t.channel + 1);
    std::ostringstream x;
    x << "<algo name=\"" << name << "\" proto=\"Simple\" nchannels=\"" << channels
      << "\" nchunksperloop=\"" << s.chunkCount() << "\" ngpus=\"" << s.npus << "\" coll=\""
      << mscclCollective(s.kind) << "\" inplace=\"0\">\n";
    for (size_t gpu = 0; gpu < plan.size(); ++gpu) {
        x << "  <gpu id=\"" << gpu << "\" i_chunks=\"" << inChunks << "\" o_chunks=\"" << outChunks
          << "\" s_chunks=\"0\">\n";
        for (size_t tb = 0; tb < plan[gpu].size(); ++tb) {
            const PlanTb& t = plan[gpu][tb];
            x << "    <tb id=\"" << tb << "\" send=\"" << t.sendPeer << "\" recv=\"" << t.recvPeer
              << "\" chan=\"" << t.channel << "\">\n";
            for (size_t i = 0; i < t.steps.size(); ++i) {
                const PlanStep& p = t.steps[i];
                x << "      <step s=\"" << i << "\" type=\"" << (p.send ? "s" : "r")
                  << "\" srcbuf=\"" << (p.send ? "i" : "o") << "\" srcoff=\"" << p.chunk
                  << "\" dstbuf=\"o\" dstoff=\"" << p.chunk << "\" cnt=\"1\" depid=\"" << p.depTb
                  << "\" deps=\"" << p.depStep << "\" hasdep=\"" << (p.hasDep ? 1 : 0) << "\"/>\n";
            }
            x << "    </tb>\n";
        }
        x << "  </gpu>\n";
    }
    x << "</algo>\n";
    return x.str();
}

std::string scheduleCsv(const Schedule& s) {
    std::string out = "phase,step,start_ns,end_ns,link,src,dst,chunk\n";
    char line[160];
    for (const ChunkSend& c : s.sends) {
        const SynthLink& l = s.links[static_cast<size_t>(c.link)];
        std::snprintf(line, sizeof line, "%s,%d,%.3f,%.3f,%d,%d,%d,%d\n",
                      c.phase == 1 || s.kind == SynthesisKind::AllGather ? "AG" : "RS", c.step,
                      c.startNs, c.endNs, c.link, l.src, l.dst, c.chunk);
        out += line;
    }
    return out;
}

std::string scheduleTable(const Schedule& s, int maxSteps, int maxLinks) {
    const int steps = std::min(s.steps, maxSteps);
    const int links = std::min(static_cast<int>(s.links.size()), maxLinks);
    std::vector<std::string> cell(static_cast<size_t>(steps) * static_cast<size_t>(links), ".");
    size_t width = 1;
    for (const ChunkSend& c : s.sends)
        if (c.step < steps && c.link < links) {
            std::string& v = cell[size_t(c.link) * size_t(steps) + size_t(c.step)];
            v = std::to_string(c.chunk);
            width = std::max(width, v.size());
        }
    std::string out = "link       ";
    auto pad = [&](std::string v) {
        v.insert(0, width + 1 > v.size() ? width + 1 - v.size() : 1, ' ');
        return v;
    };
    for (int t = 0; t < steps; ++t)
        out += pad(std::to_string(t));
    out += "\n";
    for (int l = 0; l < links; ++l) {
        const SynthLink& link = s.links[size_t(l)];
        std::string head = std::to_string(link.src);
        head += link.switches > 0 ? "=>" : "->";
        head += std::to_string(link.dst);
        head.resize(std::max<size_t>(11, head.size() + 1), ' ');
        out += head;
        for (int t = 0; t < steps; ++t)
            out += pad(cell[size_t(l) * size_t(steps) + size_t(t)]);
        out += "\n";
    }
    if (steps < s.steps || links < static_cast<int>(s.links.size()))
        out += "(first " + std::to_string(steps) + " of " + std::to_string(s.steps) +
               " steps and " + std::to_string(links) + " of " + std::to_string(s.links.size()) +
               " links; the CSV has all)\n";
    if (std::any_of(s.links.begin(), s.links.end(),
                    [](const SynthLink& link) { return link.switches > 0; }))
        out += "(a => b: a link through switches, a -> b: a direct link)\n";
    return out;
}

} // namespace astrolabe

// RankFolding's action on links (RankFolding.h): the image of a link, the proof that H maps the
// links one to one as the congestion-aware model needs, and the check that routes commute
// with H.
#include "core/Error.h"
#include "simulation/RankFolding.h"

#include <algorithm>
#include <numeric>

namespace astrolabe {

int RankFolding::linkImage(int k, int link) const {
    if (k == 0)
        return link;
    const LinkInfo& info = m_topology.link(link);
    const int npus = m_topology.npuCount();
    // Every link of a dimension stack touches an NPU; a switch is the one of that NPU's line.
    const int npu = info.src < npus ? info.src : info.dst;
    const int image = apply(k, npu);
    auto deviceImage = [&](int device) {
        return device < npus ? apply(k, device) : m_topology.switchDevice(image, info.dimension);
    };
    auto ends = [](int src, int dst) {
        return static_cast<uint64_t>(src) << 32 | static_cast<uint32_t>(dst);
    };
    // Parallel links (a ring of two NPUs) map in order: the j-th onto the j-th.
    const std::vector<int>& from = m_linkByEnds.at(ends(info.src, info.dst));
    const auto to = m_linkByEnds.find(ends(deviceImage(info.src), deviceImage(info.dst)));
    const auto j = static_cast<size_t>(std::find(from.begin(), from.end(), link) - from.begin());
    if (to == m_linkByEnds.end() || to->second.size() != from.size())
        throw Error(ErrorKind::Internal,
                    "rank folding: link " + std::to_string(link) + " (device " +
                        std::to_string(info.src) + " to " + std::to_string(info.dst) +
                        ") has no image under symmetry " + std::to_string(k) +
                        ": the platform is not symmetric under the folding's digit shifts");
    return to->second[j];
}

std::string RankFolding::findLinkOrbits() {
    const int links = m_topology.linkCount();
    // Union-find whose root is the lowest link of its set.
    std::vector<int32_t> parent(static_cast<size_t>(links));
    std::iota(parent.begin(), parent.end(), 0);
    const auto root = [&parent](int32_t l) {
        while (parent[static_cast<size_t>(l)] != l) {
            parent[static_cast<size_t>(l)] =
                parent[static_cast<size_t>(parent[static_cast<size_t>(l)])];
            l = parent[static_cast<size_t>(l)];
        }
        return l;
    };
    // Each generator is the element of H that steps its own digit by one: k = the product of
    // the radices before it (apply() reads k in mixed radix, first digit fastest).
    int k = 1;
    std::vector<char> hit(static_cast<size_t>(links));
    for (const Digit& g : m_digits) {
        std::fill(hit.begin(), hit.end(), 0);
        for (int l = 0; l < links; ++l) {
            int image = -1;
            try {
                image = linkImage(k, l);
            } catch (const Error& e) {
                return e.message();
            }
            if (hit[static_cast<size_t>(image)]++)
                return "the shift of dimension " + std::to_string(g.dimension) +
                       " maps two links onto link " + std::to_string(image);
            const LinkInfo& a = m_topology.link(l);
            const LinkInfo& b = m_topology.link(image);
            if (a.dimension != b.dimension ||
                a.bandwidthBytesPerSecond != b.bandwidthBytesPerSecond ||
                m_topology.linkLatencyNs(l) != m_topology.linkLatencyNs(image))
                return "the shift of dimension " + std::to_string(g.dimension) + " maps link " +
                       std::to_string(l) + " onto link " + std::to_string(image) +
                       " of another dimension, bandwidth or latency";
            const int32_t x = root(l), y = root(image);
            if (x != y)
                parent[static_cast<size_t>(std::max(x, y))] = std::min(x, y);
        }
        k *= g.radix;
    }
    m_linkServer.assign(static_cast<size_t>(links), 0);
    std::vector<int> members(static_cast<size_t>(links), 0);
    for (int l = 0; l < links; ++l) {
        m_linkServer[static_cast<size_t>(l)] = root(l);
        ++members[static_cast<size_t>(root(l))];
    }
    // H is abelian, so every link of an orbit has the same stabilizer: |orbit| = |H| says that
    // no element but the identity fixes a link.
    for (int l = 0; l < links; ++l)
        if (m_linkServer[static_cast<size_t>(l)] == l &&
            members[static_cast<size_t>(l)] != m_orbitSize) {
            m_linkServer.clear();
            return "a symmetry of the folding fixes link " + std::to_string(l) +
                   ": its queue could not stand for the others";
        }
    return {};
}

void RankFolding::checkRoute(int src, int dst) const {
    if (!m_checkedRoutes.insert(static_cast<uint64_t>(src) << 32 | static_cast<uint32_t>(dst))
             .second)
        return;
    std::vector<int32_t> route, image;
    m_topology.appendRoute(src, dst, route);
    for (int k = 1; k < m_orbitSize; ++k) {
        image.clear();
        m_topology.appendRoute(apply(k, src), apply(k, dst), image);
        bool same = image.size() == route.size();
        for (size_t i = 0; same && i < route.size(); ++i)
            same = image[i] == linkImage(k, route[i]);
        if (!same)
            throw Error(ErrorKind::Internal,
                        "rank folding: the route from NPU " + std::to_string(src) + " to NPU " +
                            std::to_string(dst) + " does not map onto the route from NPU " +
                            std::to_string(apply(k, src)) + " to NPU " +
                            std::to_string(apply(k, dst)) + " under symmetry " + std::to_string(k) +
                            ": links would be loaded differently");
    }
}

} // namespace astrolabe

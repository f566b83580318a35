#include "collective/TreePhase.h"

namespace astrolabe {

TreePhase::Shape TreePhase::shapeOf(int index, int n, bool rootMax) {
    Shape s;
    const int top = rootMax ? n - 1 : 0;
    // The complete in-order tree over [lo, hi] (n - 1 = 2^h - 1 members).
    int lo = rootMax ? 0 : 1;
    int hi = rootMax ? n - 2 : n - 1;
    if (index == top) {
        s.children[0] = (lo + hi) / 2;
        s.childCount = n > 1 ? 1 : 0;
        return s;
    }
    int parent = top;
    for (;;) {
        const int root = (lo + hi) / 2;
        if (root == index) {
            s.parent = parent;
            if (lo < hi) {
                s.children[0] = (lo + root - 1) / 2;
                s.children[1] = (root + 1 + hi) / 2;
                s.childCount = 2;
            }
            return s;
        }
        parent = root;
        if (index < root)
            hi = root - 1;
        else
            lo = root + 1;
    }
}

TreePhase::TreePhase(const PhaseSpec& spec, PhaseContext context)
    : m_spec(spec)
    , m_ctx(std::move(context))
    , m_shape(shapeOf(spec.ring.myIndex, spec.ring.size, spec.rootMax)) {}

void TreePhase::send(int index) {
    if (m_ctx.transfers) {
        // Up the tree (to the parent) the receiver reduces; down it only forwards. Step 0 is
        // the reduction towards the root, step 1 the broadcast back.
        const bool up = index == m_shape.parent;
        m_ctx.sendRecorded(m_spec.ring.npuAt(index), m_ctx.wireBytes(m_spec.inputBytes), up ? 0 : 1,
                           up);
        return;
    }
    m_ctx.transport->send(m_ctx.npu, m_spec.ring.npuAt(index), m_ctx.tag,
                          m_ctx.wireBytes(m_spec.inputBytes));
}

void TreePhase::receive(int index, void (TreePhase::*handler)()) {
    m_ctx.transport->receive(m_ctx.npu, m_spec.ring.npuAt(index), m_ctx.tag,
                             m_ctx.wireBytes(m_spec.inputBytes),
                             [this, handler] { (this->*handler)(); });
}

void TreePhase::start() {
    const bool leaf = m_shape.childCount == 0 && m_shape.parent >= 0;
    if (leaf) {
        m_state = "leaf: sending to its parent";
        m_ctx.sim->scheduleIn(m_ctx.endpointDelay, [this] {
            send(m_shape.parent);
            m_state = "leaf: waiting for data from parent index " + std::to_string(m_shape.parent);
            receive(m_shape.parent, &TreePhase::onParentArrived);
        });
        return;
    }
    m_state = "waiting for its children";
    for (int c = 0; c < m_shape.childCount; ++c)
        receive(m_shape.children[c], &TreePhase::onChildArrived);
}

void TreePhase::onChildArrived() {
    m_ctx.sim->scheduleIn(m_ctx.endpointDelay + m_ctx.reduction(m_spec.inputBytes),
                          [this] { onChildReduced(); });
}

void TreePhase::onChildReduced() {
    if (++m_childrenReduced < m_shape.childCount)
        return;
    if (m_shape.parent < 0) { // top root: turn the reduced data around
        send(m_shape.children[0]);
        finish();
        return;
    }
    send(m_shape.parent);
    m_state = "waiting for data from parent index " + std::to_string(m_shape.parent);
    receive(m_shape.parent, &TreePhase::onParentArrived);
}

void TreePhase::onParentArrived() {
    if (m_shape.childCount == 0) { // leaf
        m_ctx.sim->scheduleIn(m_ctx.endpointDelay, [this] { finish(); });
        return;
    }
    m_ctx.sim->scheduleIn(m_ctx.endpointDelay + m_ctx.reduction(m_spec.inputBytes), [this] {
        for (int c = 0; c < m_shape.childCount; ++c)
            send(m_shape.children[c]);
        finish();
    });
}

void TreePhase::finish() {
    if (m_done)
        return;
    m_done = true;
    m_state = "done";
    const std::function<void()> done = std::move(m_ctx.onDone);
    done();
}

std::string TreePhase::waitingFor() const {
    return "doubleBinaryTree phase: " + m_state;
}

} // namespace astrolabe

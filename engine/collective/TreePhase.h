#pragma once
// Double binary tree all-reduce on one dimension (spec §5.8).
//
// Two trees over the n (power of two) members, used by alternate chunks: RootMax (top root =
// largest index, its only child the root of a complete in-order binary tree over the others)
// and RootMin (top root = smallest index). Every edge carries the full chunk m.
//   leaf:         hop E, send m up, wait for the parent, hop E, done
//   intermediate: each child's arrival costs E + R(m); after both, send up; the parent's data
//                 costs E + R(m) again, then send to both children and finish
//   top root:     the child's arrival costs E + R(m); send it back down and finish

#include "collective/Phase.h"

namespace astrolabe {

class TreePhase : public Phase {
public:
    TreePhase(const PhaseSpec& spec, PhaseContext context);
    void start() override;
    std::string waitingFor() const override;

    /// Tree shape, exposed for tests: parent index (-1 for the top root) and up to two children.
    struct Shape {
        int parent = -1;
        int children[2] = {-1, -1};
        int childCount = 0;
    };
    static Shape shapeOf(int index, int n, bool rootMax);

private:
    void send(int index);
    void receive(int index, void (TreePhase::*handler)());
    void onChildArrived();
    void onChildReduced();
    void onParentArrived();
    void finish();

    PhaseSpec m_spec;
    PhaseContext m_ctx;
    Shape m_shape;
    int m_childrenReduced = 0;
    bool m_done = false;
    std::string m_state = "not started";
};

} // namespace astrolabe

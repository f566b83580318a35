#pragma once
// The graph page of the topology editor (shown when the platform is a graph,
// docs/graph-platforms.md): the generator palette, buttons to add NPUs and switches and to
// delete the selection, the drawing (GraphView: drag between two devices to link them), the
// selected link's bandwidth and latency edited in place, and the graph's problems listed under
// it as the stack lists a dimension's. Every edit goes through the TopologyDocument, so it is one
// undoable step on the editor's (or the application's) undo stack and lands in the project.
//
// Positions: a device moved (Shift+drag) is one undoable edit that stores every device's
// position in the graph (GraphSpec::positions), so the project saves them and a reopened
// project shows them instead of the automatic layout; "Auto layout" drops them (undoable too).
// A graph without saved positions seen before (an undo, a redo) gets its earlier positions back;
// a new one is laid out by layoutGraph(); a device added here sits where it was put.
#include "spec/PlatformSpec.h"

#include <QPointF>
#include <QWidget>
#include <deque>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace astrolabe::widgets {

class GraphPalette;
class GraphView;
class TopologyDocument;

class GraphEditor : public QWidget {
    Q_OBJECT
public:
    GraphEditor(TopologyDocument* document, QWidget* parent = nullptr);

    GraphView* view() const { return m_view; }
    GraphPalette* palette() const { return m_palette; }
    QLineEdit* bandwidthEdit() const { return m_bandwidth; }
    QLineEdit* latencyEdit() const { return m_latency; }
    QLabel* problemsLabel() const { return m_problems; }
    QComboBox* routingBox() const { return m_routing; }
    /// The logical dimensions' sizes ("8, 4"): what collectives plan over, one algorithm each.
    QLineEdit* logicalEdit() const { return m_logical; }
    /// The editor a double-click on a link opens on the drawing, at the link: "bandwidth,
    /// latency" (e.g. "25 GB/s, 500 ns"); Enter applies it as one undoable step, Escape or a
    /// click elsewhere closes it unchanged. Hidden when not in use.
    QLineEdit* inlineLinkEdit() const { return m_inline; }
    const std::vector<QPointF>& positions() const { return m_positions; }

    /// Shows the document's graph (called on every platform change).
    void showGraph();
    void addDevice(bool isSwitch);
    void addLink(int from, int to);
    void deleteSelection();
    /// Puts a device elsewhere in the drawing (Shift+drag), rounded to whole scene units: an
    /// undoable edit that saves all positions in the graph (and so in the project).
    void moveDevice(int device, QPointF scenePos);
    /// Lays the graph out afresh, dropping saved positions (an undoable edit when there were).
    void relayout();

private:
    void remember(const GraphSpec& graph, std::vector<QPointF> positions);
    /// Where a new device goes: the view's centre, or the nearest free place around it.
    QPointF freePlace(const std::vector<QPointF>& positions, int skip) const;
    void showSelectedLink();
    /// Applies the panel's bandwidth, latency and direction to the selected link; false (and
    /// the reason under the panel) when the text is not a bandwidth or a latency.
    bool editSelectedLink();
    void openInlineLinkEdit(int link, QPoint viewPos);
    void applyInlineLinkEdit();
    bool eventFilter(QObject* watched, QEvent* event) override;
    void editRouting(int index);
    void editLogicalDimensions();

    TopologyDocument* m_document;
    GraphPalette* m_palette;
    GraphView* m_view;
    QLineEdit* m_bandwidth;
    QLineEdit* m_latency;
    QCheckBox* m_bidirectional;
    QComboBox* m_routing; ///< the graph group's routing setting, from the schema
    QLineEdit* m_logical;
    QLineEdit* m_inline; ///< on the drawing's viewport, over the link being edited
    QLabel* m_linkTitle;
    QLabel* m_problems;
    std::vector<QPointF> m_positions;
    std::deque<std::pair<GraphSpec, std::vector<QPointF>>> m_known; ///< recent graphs' positions
};

} // namespace astrolabe::widgets

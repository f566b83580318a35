#pragma once
// The memory tier in the topology editor's left panel, under the dimension stack, while the
// project has one: a line summing it up with "Remove memory tier" and, once the tier is selected
// (here, in the drawing or on its legend line), its settings. The fields are the schema's own
// (widgets/config's createMemorySection: units, ranges and messages as in the Configuration
// tab); each edit is one TopologyDocument::editMemory step on the editor's undo stack.
#include <QFrame>

class QAction;
class QLabel;
class QToolButton;

namespace astrolabe::widgets {

class ConfigSection;
class TopologyDocument;
struct SpecEdit;

class MemoryTierPanel : public QFrame {
    Q_OBJECT
public:
    /// `add` and `remove` are the editor's actions (also in its menus).
    MemoryTierPanel(TopologyDocument* document, QAction* add, QAction* remove,
                    QWidget* parent = nullptr);

    ConfigSection* section() const { return m_section; }
    QLabel* summaryLabel() const { return m_summary; }
    /// The red lines under the fields: memoryProblems() of the tier.
    QLabel* problemsLabel() const { return m_problems; }

signals:
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    void refresh();
    void applyEdit(const SpecEdit& edit);

    TopologyDocument* m_document;
    QLabel* m_summary;
    QToolButton* m_add;
    QToolButton* m_remove;
    ConfigSection* m_section;
    QLabel* m_problems;
};

} // namespace astrolabe::widgets

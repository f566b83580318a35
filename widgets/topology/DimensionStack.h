#pragma once
// The canvas of the topology editor: the platform's dimensions top (d0, fastest) to bottom.
// Blocks dropped from the palette are inserted at the drop position; a row dragged within the
// stack moves there. Edits go to the TopologyDocument, which records them for undo.
#include <QWidget>
#include <vector>

class QMimeData;
class QVBoxLayout;

namespace astrolabe::widgets {

class DimensionRow;
class TopologyDocument;

class DimensionStack : public QWidget {
    Q_OBJECT
public:
    explicit DimensionStack(TopologyDocument* document, QWidget* parent = nullptr);

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    DimensionRow* row(int index) const { return m_rows.at(index); }
    /// The gap (0..rowCount) a drop at pos (widget coordinates) inserts into.
    int insertionIndexAt(QPoint pos) const;
    /// The payload a drag of row `index` carries (also used by tests).
    QMimeData* mimeDataForRow(int index) const;
    /// -1 when no drag hovers the stack.
    int dropIndicatorIndex() const { return m_dropIndex; }

    QSize sizeHint() const override;

signals:
    void contextMenuRequested(QPoint globalPos);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dragLeaveEvent(QDragLeaveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void syncRows();
    void syncSelection();
    void startRowDrag(int index);
    bool acceptsMime(const QMimeData* mime) const;
    int indicatorY(int index) const;

    TopologyDocument* m_document;
    QVBoxLayout* m_layout;
    std::vector<DimensionRow*> m_rows;
    int m_dropIndex = -1;
};

} // namespace astrolabe::widgets

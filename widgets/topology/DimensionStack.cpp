#include "topology/DimensionStack.h"

#include "topology/BlockMime.h"
#include "topology/DimensionRow.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyMath.h"

#include <QContextMenuEvent>
#include <QDrag>
#include <QMimeData>
#include <QPainter>
#include <QVBoxLayout>

namespace astrolabe::widgets {

namespace {
// The move payload names the stack it comes from, so a drop from another editor copies instead.
QByteArray movePayload(const void* stack, int index) {
    return QByteArray::number(reinterpret_cast<quintptr>(stack)) + ':' + QByteArray::number(index);
}
} // namespace

DimensionStack::DimensionStack(TopologyDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_layout(new QVBoxLayout(this)) {
    setAcceptDrops(true);
    m_layout->setContentsMargins(6, 10, 6, 10);
    m_layout->setSpacing(10); // room for the drop indicator between rows
    m_layout->addStretch(1);
    connect(document, &TopologyDocument::platformChanged, this, &DimensionStack::syncRows);
    connect(document, &TopologyDocument::selectionChanged, this, &DimensionStack::syncSelection);
    syncRows();
}

QSize DimensionStack::sizeHint() const {
    return QSize(360, 320);
}

void DimensionStack::syncRows() {
    const std::vector<DimensionSpec>& dims = m_document->platform().dimensions;
    // Rows are updated in place so that a spin box being edited keeps its focus.
    while (m_rows.size() > dims.size()) {
        delete m_rows.back();
        m_rows.pop_back();
    }
    while (m_rows.size() < dims.size()) {
        auto* row = new DimensionRow(static_cast<int>(m_rows.size()), this);
        connect(row, &DimensionRow::edited, m_document, &TopologyDocument::editDimension);
        connect(row, &DimensionRow::pressed, m_document, &TopologyDocument::setSelectedDimension);
        connect(row, &DimensionRow::dragRequested, this, &DimensionStack::startRowDrag);
        m_layout->insertWidget(static_cast<int>(m_rows.size()), row);
        m_rows.push_back(row);
    }
    std::vector<QString> problems(dims.size());
    for (const PlatformProblem& p : platformProblems(m_document->platform())) {
        if (p.dimension >= 0) {
            QString& text = problems[static_cast<size_t>(p.dimension)];
            text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
                    QString::fromStdString(p.message);
        }
    }
    for (size_t i = 0; i < dims.size(); ++i) {
        m_rows[i]->setDimension(dims[i]);
        m_rows[i]->setProblem(problems[i]);
    }
    syncSelection();
    update();
}

void DimensionStack::syncSelection() {
    for (DimensionRow* row : m_rows)
        row->setSelected(row->index() == m_document->selectedDimension());
}

int DimensionStack::insertionIndexAt(QPoint pos) const {
    int index = 0;
    for (DimensionRow* row : m_rows) {
        if (pos.y() > row->geometry().center().y())
            ++index;
    }
    return index;
}

int DimensionStack::indicatorY(int index) const {
    if (m_rows.empty())
        return m_layout->contentsMargins().top();
    if (index < static_cast<int>(m_rows.size()))
        return m_rows[static_cast<size_t>(index)]->geometry().top() - m_layout->spacing() / 2;
    return m_rows.back()->geometry().bottom() + m_layout->spacing() / 2 + 1;
}

QMimeData* DimensionStack::mimeDataForRow(int index) const {
    QMimeData* mime = makeBlockMimeData({m_document->platform().dimensions.at(index)});
    mime->setData(QString::fromLatin1(kDimensionMoveMimeType), movePayload(this, index));
    return mime;
}

void DimensionStack::startRowDrag(int index) {
    auto* drag = new QDrag(this);
    drag->setMimeData(mimeDataForRow(index));
    drag->setPixmap(m_rows[static_cast<size_t>(index)]->grab().scaledToWidth(220));
    drag->exec(Qt::MoveAction | Qt::CopyAction, Qt::MoveAction);
}

bool DimensionStack::acceptsMime(const QMimeData* mime) const {
    return mime && (mime->hasFormat(QString::fromLatin1(kBlockMimeType)) ||
                    mime->hasFormat(QString::fromLatin1(kDimensionMoveMimeType)));
}

void DimensionStack::dragEnterEvent(QDragEnterEvent* event) {
    if (!acceptsMime(event->mimeData()))
        return;
    m_dropIndex = insertionIndexAt(event->position().toPoint());
    event->acceptProposedAction();
    update();
}

void DimensionStack::dragMoveEvent(QDragMoveEvent* event) {
    if (!acceptsMime(event->mimeData())) {
        event->ignore();
        return;
    }
    m_dropIndex = insertionIndexAt(event->position().toPoint());
    event->acceptProposedAction();
    update();
}

void DimensionStack::dragLeaveEvent(QDragLeaveEvent*) {
    m_dropIndex = -1;
    update();
}

void DimensionStack::dropEvent(QDropEvent* event) {
    m_dropIndex = -1;
    update();
    const QMimeData* mime = event->mimeData();
    if (!acceptsMime(mime))
        return;
    const int index = insertionIndexAt(event->position().toPoint());
    const QList<QByteArray> move =
        mime->data(QString::fromLatin1(kDimensionMoveMimeType)).split(':');
    if (move.size() == 2 && move[0] == QByteArray::number(reinterpret_cast<quintptr>(this))) {
        m_document->moveDimension(move[1].toInt(), index);
        event->setDropAction(Qt::MoveAction);
        event->accept();
        return;
    }
    const std::vector<DimensionSpec> dims = dimensionsFromMimeData(mime);
    if (dims.empty())
        return;
    m_document->insertDimensions(index, dims);
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

void DimensionStack::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_rows.empty()) {
        p.setPen(QPen(palette().color(QPalette::Mid), 2, Qt::DashLine));
        const QRect box = rect().adjusted(8, 8, -8, -8);
        p.drawRoundedRect(box, 8, 8);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(box, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Drop building blocks here.\nThe first one is dimension 0 (fastest)."));
    }
    if (m_dropIndex >= 0) {
        const int y = indicatorY(m_dropIndex);
        p.setPen(QPen(QColor(0x29, 0x80, 0xb9), 3));
        p.drawLine(8, y, width() - 8, y);
    }
}

void DimensionStack::mousePressEvent(QMouseEvent* event) {
    m_document->setSelectedDimension(-1);
    QWidget::mousePressEvent(event);
}

void DimensionStack::contextMenuEvent(QContextMenuEvent* event) {
    for (DimensionRow* row : m_rows) {
        if (row->geometry().contains(event->pos()))
            m_document->setSelectedDimension(row->index());
    }
    emit contextMenuRequested(event->globalPos());
}

} // namespace astrolabe::widgets

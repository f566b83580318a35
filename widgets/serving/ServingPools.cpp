#include "serving/ServingPools.h"

#include "common/InterfaceScale.h"

#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::widgets {

using serving::GpuRole;

QColor servingRoleColor(GpuRole role) {
    switch (role) {
    case GpuRole::Prefill:
        return QColor(0xe6, 0x7e, 0x22); // orange: compute-bound prompts
    case GpuRole::Decode:
        return QColor(0x27, 0x8c, 0xd8); // blue: memory-bound tokens
    case GpuRole::Aggregated:
        return QColor(0x8e, 0x44, 0xad); // both at once
    case GpuRole::Attention:
        return QColor(0x16, 0xa0, 0x85);
    case GpuRole::Ffn:
        return QColor(0xc0, 0x39, 0x2b);
    case GpuRole::Idle:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

ServingPoolsView::ServingPoolsView(QWidget* parent)
    : QWidget(parent)
    , m_view(new NetworkView(this)) {
    setObjectName(QStringLiteral("ServingPoolsView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_view->setOverlay(this);
}

void ServingPoolsView::setDeployment(const SimulationSpec& spec,
                                     const std::vector<serving::ReplicaStats>& replicas) {
    m_view->setPlatform(spec.platform);
    m_placement = replicas.empty()
                      ? std::vector<serving::GpuPlacement>()
                      : serving::servingPlacement(spec.serving, replicas, spec.platform.npuCount());
    m_view->fitToView();
    m_view->update();
}

std::vector<int> ServingPoolsView::roleCounts() const {
    std::vector<int> counts(size_t(GpuRole::Ffn) + 1, 0);
    for (const serving::GpuPlacement& p : m_placement)
        ++counts[size_t(p.role)];
    return counts;
}

void ServingPoolsView::paint(QPainter& p, const NetworkView& view) const {
    if (m_placement.empty())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const GraphDrawing* graph = view.graphDrawing();
    const double radius =
        std::max(3.0, (graph ? GraphDrawing::kDeviceRadius : NetworkLayout::kNodeRadius) *
                          view.scale() * 1.35);
    const NetworkLayout& layout = view.networkLayout();
    const int npus = std::min<int>(int(m_placement.size()), layout.npuCount());
    for (int id = 0; id < npus; ++id) {
        const GpuRole role = m_placement[size_t(id)].role;
        if (role == GpuRole::Idle)
            continue;
        const QPointF c = view.sceneToWidget(graph ? graph->position(id) : layout.npuPosition(id));
        QColor fill = servingRoleColor(role);
        fill.setAlpha(150);
        p.setPen(QPen(servingRoleColor(role).darker(130), std::max(1.5, radius * 0.25)));
        p.setBrush(fill);
        p.drawEllipse(c, radius, radius);
    }
    // The legend, top right: one line per pool role present, with its GPU count.
    const std::vector<int> counts = roleCounts();
    QFont font = p.font();
    font.setPixelSize(InterfaceScale::px(12));
    p.setFont(font);
    const int line = p.fontMetrics().height() + InterfaceScale::px(4);
    const int box = p.fontMetrics().height() - InterfaceScale::px(2);
    int width = 0, lines = 0;
    std::vector<std::pair<GpuRole, QString>> entries;
    for (size_t r = 0; r < counts.size(); ++r)
        if (counts[r] > 0) {
            const auto role = GpuRole(r);
            const QString text = QStringLiteral("%1: %2 GPUs")
                                     .arg(QLatin1String(serving::gpuRoleName(role)))
                                     .arg(counts[r]);
            entries.emplace_back(role, text);
            width = std::max(width, p.fontMetrics().horizontalAdvance(text));
            ++lines;
        }
    const int pad = InterfaceScale::px(6);
    const QRect frame(view.width() - width - box - 4 * pad, pad, width + box + 3 * pad,
                      lines * line + pad);
    p.setPen(QColor(0xc8, 0xc8, 0xc8));
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(frame, 4, 4);
    int y = frame.top() + pad / 2;
    for (const auto& [role, text] : entries) {
        p.setPen(servingRoleColor(role).darker(130));
        p.setBrush(servingRoleColor(role));
        p.drawEllipse(QRect(frame.left() + pad, y + (line - box) / 2, box, box));
        p.setPen(QColor(0x20, 0x20, 0x20));
        p.drawText(QRect(frame.left() + 2 * pad + box, y, width + pad, line),
                   Qt::AlignVCenter | Qt::AlignLeft, text);
        y += line;
    }
    p.restore();
}

} // namespace astrolabe::widgets

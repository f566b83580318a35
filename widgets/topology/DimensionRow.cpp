#include "topology/DimensionRow.h"

#include "schema/Setting.h"
#include "topology/DimensionColors.h"
#include "topology/UnitChoices.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSpinBox>

namespace astrolabe::widgets {
namespace {

// A dimension setting's help, as declared (engine/schema/PlatformSettings.cpp).
QString helpOf(const char* key) {
    return QString::fromStdString(
        settings::find(settings::dimensionGroup(), std::string("dimension.") + key).help);
}

} // namespace

DimensionRow::DimensionRow(int index, QWidget* parent)
    : QFrame(parent)
    , m_index(index)
    , m_badge(new QLabel(this))
    , m_kind(new QComboBox(this))
    , m_size(new QSpinBox(this))
    , m_bandwidth(new QDoubleSpinBox(this))
    , m_bandwidthUnit(new QComboBox(this))
    , m_latency(new QDoubleSpinBox(this))
    , m_latencyUnit(new QComboBox(this))
    , m_marker(new QLabel(this))
    , m_message(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setCursor(Qt::OpenHandCursor);
    setToolTip(tr("Drag to reorder; click to select"));

    auto* grip = new QLabel(QStringLiteral("\u2630"), this);
    grip->setToolTip(tr("Drag to move this dimension"));
    m_badge->setFixedWidth(34);
    m_badge->setAlignment(Qt::AlignCenter);
    for (const std::string& name : blockKindNames())
        m_kind->addItem(QString::fromStdString(name));
    m_kind->setCursor(Qt::ArrowCursor);
    m_kind->setToolTip(helpOf("type"));
    // Size 1 is allowed in the editor so that it can be shown as an error, not silently bumped.
    m_size->setRange(1, 4096);
    m_size->setKeyboardTracking(false);
    m_size->setPrefix(QStringLiteral("\u00d7 "));
    m_size->setToolTip(helpOf("size"));
    m_bandwidth->setRange(0, 1e6);
    m_bandwidth->setDecimals(3);
    m_bandwidth->setKeyboardTracking(false);
    m_bandwidth->setToolTip(helpOf("bandwidth"));
    for (const UnitChoice& u : bandwidthUnits())
        m_bandwidthUnit->addItem(u.name);
    m_latency->setRange(0, 1e9);
    m_latency->setDecimals(3);
    m_latency->setKeyboardTracking(false);
    m_latency->setToolTip(helpOf("latency"));
    for (const UnitChoice& u : latencyUnits())
        m_latencyUnit->addItem(u.name);
    m_marker->setFixedWidth(18);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_message->hide();

    // Three short lines (block and size; bandwidth; latency) so a row fits a narrow panel.
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(6, 4, 6, 4);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(3);
    grid->addWidget(grip, 0, 0);
    grid->addWidget(m_badge, 0, 1);
    grid->addWidget(m_kind, 0, 2);
    grid->addWidget(m_size, 0, 3);
    grid->addWidget(m_marker, 0, 4);
    grid->addWidget(new QLabel(tr("bandwidth"), this), 1, 1);
    grid->addWidget(m_bandwidth, 1, 2);
    grid->addWidget(m_bandwidthUnit, 1, 3);
    grid->addWidget(new QLabel(tr("latency"), this), 2, 1);
    grid->addWidget(m_latency, 2, 2);
    grid->addWidget(m_latencyUnit, 2, 3);
    grid->addWidget(m_message, 3, 1, 1, 4);
    grid->setColumnStretch(2, 1);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_dimension.kind = static_cast<BlockKind>(i);
        emitEdit(DimensionField::Kind);
    });
    connect(m_size, &QSpinBox::valueChanged, this, [this](int v) {
        m_dimension.size = v;
        emitEdit(DimensionField::Size);
    });
    connect(m_bandwidth, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        m_dimension.bandwidthBytesPerSecond =
            v * bandwidthUnits()[m_bandwidthUnit->currentIndex()].factor;
        emitEdit(DimensionField::Bandwidth);
    });
    connect(m_latency, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        m_dimension.latencyNs = v * latencyUnits()[m_latencyUnit->currentIndex()].factor;
        emitEdit(DimensionField::Latency);
    });
    // A unit change only changes how the same value is shown.
    connect(m_bandwidthUnit, &QComboBox::currentIndexChanged, this, [this] { showValues(); });
    connect(m_latencyUnit, &QComboBox::currentIndexChanged, this, [this] { showValues(); });
    setIndex(index);
}

void DimensionRow::setIndex(int index) {
    m_index = index;
    m_badge->setText(QStringLiteral("d%1").arg(index));
    updateStyle();
}

void DimensionRow::setDimension(const DimensionSpec& dimension) {
    // A value that did not come from this row (a new row, undo, a move, a preset) is shown in
    // its natural unit; a value the student typed keeps the unit it was typed in.
    const QSignalBlocker b1(m_bandwidthUnit), b2(m_latencyUnit);
    if (dimension.bandwidthBytesPerSecond != m_dimension.bandwidthBytesPerSecond)
        m_bandwidthUnit->setCurrentIndex(preferredBandwidthUnit(dimension.bandwidthBytesPerSecond));
    if (dimension.latencyNs != m_dimension.latencyNs)
        m_latencyUnit->setCurrentIndex(preferredLatencyUnit(dimension.latencyNs));
    m_dimension = dimension;
    showValues();
}

void DimensionRow::showValues() {
    const QSignalBlocker b1(m_kind), b2(m_size), b3(m_bandwidth), b4(m_latency);
    m_kind->setCurrentIndex(static_cast<int>(m_dimension.kind));
    m_size->setValue(m_dimension.size);
    m_bandwidth->setValue(m_dimension.bandwidthBytesPerSecond /
                          bandwidthUnits()[m_bandwidthUnit->currentIndex()].factor);
    m_latency->setValue(m_dimension.latencyNs /
                        latencyUnits()[m_latencyUnit->currentIndex()].factor);
}

void DimensionRow::setSelected(bool selected) {
    m_selected = selected;
    updateStyle();
}

void DimensionRow::setProblem(const QString& message) {
    m_marker->setText(message.isEmpty() ? QString() : QStringLiteral("\u26a0"));
    m_marker->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_marker->setToolTip(message);
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    updateStyle();
}

QString DimensionRow::problem() const {
    return m_message->text();
}

void DimensionRow::updateStyle() {
    const QColor color = dimensionColor(m_index);
    m_badge->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 4px; "
                                          "font-weight: bold; padding: 2px;")
                               .arg(color.name()));
    QPalette pal = palette();
    const bool bad = !m_message->text().isEmpty();
    pal.setColor(QPalette::Window, bad ? QColor(0xfd, 0xed, 0xec)
                                       : (m_selected ? tint(color, 0.22) : tint(color, 0.05)));
    setPalette(pal);
    setLineWidth(m_selected ? 2 : 1);
}

void DimensionRow::emitEdit(DimensionField field) {
    emit edited(m_index, m_dimension, field);
}

void DimensionRow::mousePressEvent(QMouseEvent* event) {
    m_pressedHere = event->button() == Qt::LeftButton;
    m_pressPos = event->position().toPoint();
    emit pressed(m_index);
    event->accept(); // the stack behind would take an ignored press as "clear the selection"
}

void DimensionRow::mouseMoveEvent(QMouseEvent* event) {
    if (m_pressedHere && (event->buttons() & Qt::LeftButton) &&
        (event->position().toPoint() - m_pressPos).manhattanLength() >=
            QApplication::startDragDistance()) {
        m_pressedHere = false;
        emit dragRequested(m_index);
        return;
    }
    QFrame::mouseMoveEvent(event);
}

} // namespace astrolabe::widgets

#include "topology/GraphPalette.h"

#include "core/Error.h"
#include "core/Units.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace astrolabe::widgets {

namespace {
// A typical size per generator, shown when it is picked.
QString defaultSize(const QString& name) {
    if (name == QLatin1String("mesh3d") || name == QLatin1String("torus3d"))
        return QStringLiteral("4, 4, 4");
    if (name == QLatin1String("hypercube"))
        return QStringLiteral("4");
    if (name == QLatin1String("dgx1"))
        return QString();
    if (name == QLatin1String("fattree"))
        return QStringLiteral("4");
    if (name == QLatin1String("dragonfly"))
        return QStringLiteral("2, 4, 2");
    if (name == QLatin1String("rail"))
        return QStringLiteral("4, 8");
    return QStringLiteral("4, 4");
}
} // namespace

GraphPalette::GraphPalette(QWidget* parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_size(new QLineEdit(this))
    , m_bandwidth(new QLineEdit(QStringLiteral("100 GB/s"), this))
    , m_latency(new QLineEdit(QStringLiteral("100 ns"), this))
    , m_secondBandwidth(new QLineEdit(this))
    , m_secondLatency(new QLineEdit(this))
    , m_error(new QLabel(this)) {
    for (const std::string& name : graphGeneratorNames())
        m_list->addItem(QString::fromStdString(name));
    m_list->setMaximumHeight(120);
    m_secondBandwidth->setPlaceholderText(tr("same as bandwidth"));
    m_secondLatency->setPlaceholderText(tr("same as latency"));
    m_size->setToolTip(tr("Sizes separated by commas (docs/graph-platforms.md, Generators)"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    auto* form = new QFormLayout;
    form->addRow(tr("Size"), m_size);
    form->addRow(tr("Bandwidth"), m_bandwidth);
    form->addRow(tr("Latency"), m_latency);
    form->addRow(tr("Global / rail bandwidth"), m_secondBandwidth);
    form->addRow(tr("Global / rail latency"), m_secondLatency);
    auto* button = new QPushButton(tr("Generate"), this);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_list);
    column->addLayout(form);
    column->addWidget(button);
    column->addWidget(m_error);
    connect(m_list, &QListWidget::currentTextChanged, this,
            [this](const QString& name) { m_size->setText(defaultSize(name)); });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this] { generate(); });
    connect(button, &QPushButton::clicked, this, [this] { generate(); });
    m_list->setCurrentRow(0);
}

GraphGeneratorSpec GraphPalette::spec() const {
    GraphGeneratorSpec s;
    s.name = m_list->currentItem() ? m_list->currentItem()->text().toStdString() : std::string();
    for (const QString& part :
         m_size->text().split(QRegularExpression(QStringLiteral("[,x\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = part.toLongLong(&ok);
        if (!ok)
            throw Error(ErrorKind::Validation,
                        "size: expected whole numbers, found \"" + part.toStdString() + "\"");
        s.size.push_back(v);
    }
    s.bandwidthBytesPerSecond =
        units::parseBandwidthBytesPerSecond(m_bandwidth->text().toStdString());
    s.latencyNs = units::parseTime(m_latency->text().toStdString()).ns();
    if (!m_secondBandwidth->text().trimmed().isEmpty())
        s.secondBandwidthBytesPerSecond =
            units::parseBandwidthBytesPerSecond(m_secondBandwidth->text().toStdString());
    if (!m_secondLatency->text().trimmed().isEmpty())
        s.secondLatencyNs = units::parseTime(m_secondLatency->text().toStdString()).ns();
    return s;
}

bool GraphPalette::generate() {
    try {
        const GraphSpec graph = generateGraph(spec());
        m_error->clear();
        emit generated(graph);
        return true;
    } catch (const Error& e) {
        m_error->setText(QString::fromStdString(e.message()));
        return false;
    }
}

} // namespace astrolabe::widgets

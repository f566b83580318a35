#include "config/QuantityEdit.h"

#include "core/Error.h"
#include "core/Units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <cmath>

namespace astrolabe::widgets {

namespace {

struct Unit {
    const char* name;
    double factor; ///< canonical units per one of this unit
};

// The units offered in the combo box; all are accepted by astrolabe::units (which stays the one
// parser: the factors here only choose how to display a value).
const std::vector<Unit>& unitsFor(QuantityEdit::Kind kind) {
    static const std::vector<Unit> sizes{
        {"B", 1},           {"KB", 1e3},           {"MB", 1e6},
        {"GB", 1e9},        {"TB", 1e12},          {"KiB", 1024.0},
        {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
    static const std::vector<Unit> rates{
        {"B/s", 1},     {"KB/s", 1e3},        {"MB/s", 1e6},           {"GB/s", 1e9},
        {"TB/s", 1e12}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"Gbps", 1e9 / 8}};
    static const std::vector<Unit> times{
        {"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    switch (kind) {
    case QuantityEdit::Kind::Size:
        return sizes;
    case QuantityEdit::Kind::Bandwidth:
        return rates;
    case QuantityEdit::Kind::Time:
        break;
    }
    return times;
}

double parseCanonical(QuantityEdit::Kind kind, const std::string& text) {
    switch (kind) {
    case QuantityEdit::Kind::Size:
        return static_cast<double>(units::parseSizeBytes(text));
    case QuantityEdit::Kind::Bandwidth:
        return units::parseBandwidthBytesPerSecond(text);
    case QuantityEdit::Kind::Time:
        break;
    }
    return static_cast<double>(units::parseTime(text).ps());
}

} // namespace

void markInvalid(QWidget* editor, bool invalid) {
    const QString name = QString::fromLatin1(editor->metaObject()->className());
    editor->setStyleSheet(invalid ? QStringLiteral("%1 { border: 2px solid #c62828; border-radius: "
                                                   "3px; background: #fff5f5; }")
                                        .arg(name)
                                  : QString());
    editor->setProperty("invalid", invalid);
}

QuantityEdit::QuantityEdit(Kind kind, QWidget* parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_number(new QLineEdit(this))
    , m_unit(new QComboBox(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_number, 1);
    layout->addWidget(m_unit);
    for (const Unit& u : unitsFor(kind))
        m_unit->addItem(QString::fromUtf8(u.name));
    m_number->setMinimumWidth(90);
    m_number->setToolTip(acceptedForms(kind));
    setFocusProxy(m_number);
    connect(m_number, &QLineEdit::textEdited, this, &QuantityEdit::onUserEdit);
    connect(m_unit, &QComboBox::activated, this, &QuantityEdit::onUserEdit);
}

QString QuantityEdit::acceptedForms(Kind kind) {
    switch (kind) {
    case Kind::Size:
        return QString::fromUtf8(units::acceptedSizeForms());
    case Kind::Bandwidth:
        return QString::fromUtf8(units::acceptedBandwidthForms());
    case Kind::Time:
        break;
    }
    return QString::fromUtf8(units::acceptedTimeForms());
}

namespace {
// The unit whose number reads shortest and exactly (50 GiB/s rather than 53.6870912 GB/s),
// preferring numbers of at least 1; zero shows in the kind's everyday unit.
std::pair<QString, int> displayForm(QuantityEdit::Kind kind, double canonical) {
    const std::vector<Unit>& all = unitsFor(kind);
    if (canonical == 0) {
        const char* unit = kind == QuantityEdit::Kind::Size        ? "B"
                           : kind == QuantityEdit::Kind::Bandwidth ? "GB/s"
                                                                   : "ns";
        for (int i = 0; i < static_cast<int>(all.size()); ++i)
            if (qstrcmp(all[i].name, unit) == 0)
                return {QStringLiteral("0"), i};
    }
    int best = 0;
    QString bestText;
    qsizetype bestScore = 0;
    for (int i = 0; i < static_cast<int>(all.size()); ++i) {
        const double n = canonical / all[i].factor;
        if (n < 1)
            continue;
        const QString t = QString::fromStdString(units::formatNumber(n));
        // Ties go to the number below 1000 ("936.25 ns", not "936250 ps").
        const qsizetype score = t.size() + (n >= 1000 ? 1 : 0);
        if (bestText.isEmpty() || score < bestScore) {
            bestScore = score;
            best = i;
            bestText = t;
        }
    }
    if (bestText.isEmpty())
        bestText = QString::fromStdString(units::formatNumber(canonical));
    return {bestText, best};
}
} // namespace

QString QuantityEdit::format(Kind kind, double canonical) {
    const auto [number, unit] = displayForm(kind, canonical);
    return number + u' ' + QString::fromUtf8(unitsFor(kind)[static_cast<size_t>(unit)].name);
}

void QuantityEdit::setValue(double canonical) {
    const auto [number, unit] = displayForm(m_kind, canonical);
    m_number->setText(number);
    m_unit->setCurrentIndex(unit);
    setParseError({});
}

QString QuantityEdit::text() const {
    return m_number->text().trimmed() + u' ' + m_unit->currentText();
}

std::optional<double> QuantityEdit::value() const {
    try {
        return parseCanonical(m_kind, text().toStdString());
    } catch (const Error&) {
        return std::nullopt;
    }
}

void QuantityEdit::setTextAsTyped(const QString& text) {
    m_number->setText(text);
    onUserEdit();
}

void QuantityEdit::setExternalError(const QString& message) {
    const QString previous = errorMessage();
    m_externalError = message;
    refreshError(previous);
}

void QuantityEdit::onUserEdit() {
    // A unit typed into the number box ("1 MiB") moves to the unit box when it is one we offer.
    static const QRegularExpression withUnit(QStringLiteral("^\\s*([-+0-9.eE]+)\\s*(\\S+)\\s*$"));
    const QRegularExpressionMatch m = withUnit.match(m_number->text());
    if (m.hasMatch()) {
        const int unitIndex = m_unit->findText(m.captured(2));
        if (unitIndex >= 0) {
            m_unit->setCurrentIndex(unitIndex);
            m_number->setText(m.captured(1));
        }
    }
    try {
        const double v = parseCanonical(m_kind, text().toStdString());
        setParseError({});
        emit valueEdited(v);
    } catch (const Error& e) {
        QString message = QString::fromStdString(e.message());
        if (m_number->text().trimmed().isEmpty())
            message = tr("enter a number");
        setParseError(message);
    }
}

void QuantityEdit::setParseError(const QString& message) {
    const QString previous = errorMessage();
    m_parseError = message;
    refreshError(previous);
}

void QuantityEdit::refreshError(const QString& previous) {
    const QString now = errorMessage();
    markInvalid(m_number, !now.isEmpty());
    if (now != previous)
        emit validityChanged(now.isEmpty(), now);
}

} // namespace astrolabe::widgets

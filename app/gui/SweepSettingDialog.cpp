#include "gui/SweepSettingDialog.h"

#include "core/Error.h"
#include "core/Text.h"
#include "core/Units.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace astrolabe::gui {
namespace {

struct Quantity {
    double number = 0;
    std::string unit; ///< the text after the number, trimmed ("GiB/s"; "" for a count)
};

Quantity quantityOf(const std::string& text, const char* which) {
    const std::string t(trimmed(text));
    Quantity q;
    const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), q.number);
    if (error != std::errc() || t.empty()) {
        std::string message = which;
        message += ": \"";
        message += t;
        message += "\" does not start with a number";
        throw Error(ErrorKind::Validation, message);
    }
    q.unit = trimmed(std::string(end, t.data() + t.size()));
    return q;
}

} // namespace

std::vector<std::string> sweepRangeValues(const std::string& from, const std::string& to, int steps,
                                          bool log) {
    const Quantity a = quantityOf(from, "from"), b = quantityOf(to, "to");
    if (a.unit != b.unit) {
        std::string message = "from and to differ in unit (\"";
        message += a.unit;
        message += "\" and \"";
        message += b.unit;
        message += "\"): write both in the same one";
        throw Error(ErrorKind::Validation, message);
    }
    if (steps < 2)
        throw Error(ErrorKind::Validation, "steps: at least 2 values from one bound to the other");
    if (log && (a.number <= 0 || b.number <= 0))
        throw Error(ErrorKind::Validation, "a log scale needs both bounds above zero");
    std::vector<std::string> values;
    for (int i = 0; i < steps; ++i) {
        const double t = static_cast<double>(i) / (steps - 1);
        const double v = log ? a.number * std::pow(b.number / a.number, t)
                             : a.number + (b.number - a.number) * t;
        std::string value = units::formatPlain(v, 6);
        if (!a.unit.empty()) {
            value += ' ';
            value += a.unit;
        }
        values.push_back(std::move(value));
    }
    return values;
}

SweepStart sweepStartFor(const std::string& current) {
    SweepStart start;
    start.listText = trimmed(current);
    start.from = start.to = start.listText;
    Quantity q;
    try {
        q = quantityOf(current, "value");
    } catch (const Error&) {
        start.list = true;
        return start;
    }
    if (!(q.number > 0) || !std::isfinite(q.number)) {
        start.list = true;
        return start;
    }
    const bool whole = q.number == std::floor(q.number) && q.number < 1e15;
    if (whole && q.unit.empty()) {
        start.list = true;
        std::string text;
        double last = 0;
        for (const double factor : {0.25, 0.5, 1.0, 2.0, 4.0}) {
            const double v = std::max(1.0, std::floor(q.number * factor));
            if (v == last)
                continue;
            if (text.empty())
                start.from = units::formatPlain(v, 15);
            last = v;
            text += (text.empty() ? "" : ", ") + units::formatPlain(v, 15);
        }
        start.listText = text;
        start.to = units::formatPlain(last, 15); // the range, should the reader switch to it
        start.log = true;
        return start;
    }
    const std::string unit = q.unit.empty() ? std::string() : " " + q.unit;
    start.from = units::formatPlain(q.number / 2, 6) + unit;
    start.to = units::formatPlain(q.number * 2, 6) + unit;
    start.log = true;
    return start;
}

std::vector<std::string> sweepListValues(const std::string& text) {
    std::vector<std::string> values;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (std::string t(trimmed(item)); !t.empty())
            values.push_back(std::move(t));
    return values;
}

std::string sweepAxisName(const std::string& keyPath) {
    std::string last = keyPath.substr(keyPath.find_last_of('.') + 1);
    last = last.substr(0, last.find('['));
    for (char& c : last)
        if (c == '-')
            c = '_';
    return last.empty() ? std::string("value") : last;
}

std::string sweepFileText(const std::string& name, const std::string& projectFile,
                          const std::string& keyPath, const std::vector<std::string>& values) {
    std::string text = "# Written by Astrolabe's \"Sweep this setting…\" (docs/sweeps.md).\n";
    text += "name: ";
    text += name;
    text += "\nproject: ";
    text += projectFile;
    text += "\naxes:\n  - name: ";
    text += sweepAxisName(keyPath);
    text += "\n    path: ";
    text += keyPath;
    text += "\n    values:\n";
    for (const std::string& v : values) {
        text += "      - ";
        text += v;
        text += '\n';
    }
    return text;
}

QString writeSettingSweep(const QString& projectPath, const QString& keyPath,
                          const std::vector<std::string>& values) {
    const QFileInfo project(projectPath);
    const std::string axis = sweepAxisName(keyPath.toStdString());
    std::string name = project.completeBaseName().toStdString();
    name += " by ";
    name += axis;
    const QByteArray text = QByteArray::fromStdString(
        sweepFileText(name, project.fileName().toStdString(), keyPath.toStdString(), values));
    QString path;
    for (int n = 1;; ++n) {
        path = project.dir().filePath(QStringLiteral("sweep-%1%2.yaml")
                                          .arg(QString::fromStdString(axis))
                                          .arg(n == 1 ? QString() : QStringLiteral("-%1").arg(n)));
        QFile existing(path);
        if (!existing.exists() ||
            (existing.open(QIODevice::ReadOnly) && existing.readAll() == text))
            break;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
        std::string message = path.toStdString();
        message += ": cannot write the sweep file";
        throw Error(ErrorKind::Input, message);
    }
    return path;
}

SweepSettingDialog::SweepSettingDialog(const QString& keyPath, const QString& label,
                                       const QString& current, QWidget* parent)
    : QDialog(parent)
    , m_keyPath(keyPath)
    , m_listMode(new QRadioButton(tr("These values:"), this))
    , m_rangeMode(new QRadioButton(tr("From / to:"), this))
    , m_list(new QLineEdit(this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_steps(new QSpinBox(this))
    , m_log(new QCheckBox(tr("log scale (equal ratios)"), this))
    , m_preview(new QLabel(this)) {
    setWindowTitle(tr("Sweep %1").arg(label));
    m_list->setPlaceholderText(tr("comma-separated, e.g. %1")
                                   .arg(current.isEmpty() ? QStringLiteral("1, 2, 4") : current));
    const SweepStart start = sweepStartFor(current.toStdString());
    m_list->setText(QString::fromStdString(start.listText));
    m_from->setText(QString::fromStdString(start.from));
    m_to->setText(QString::fromStdString(start.to));
    m_steps->setRange(2, 1000);
    m_steps->setValue(start.steps);
    m_log->setChecked(start.log);
    (start.list ? m_listMode : m_rangeMode)->setChecked(true);
    m_preview->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(new QLabel(tr("Setting <b>%1</b> (%2): each value is one run of the saved "
                               "project, stored in its database.")
                                .arg(label.toHtmlEscaped(), keyPath.toHtmlEscaped()),
                            this));
    form->addRow(m_listMode, m_list);
    form->addRow(m_rangeMode, m_from);
    form->addRow(tr("to"), m_to);
    form->addRow(tr("steps"), m_steps);
    form->addRow(QString(), m_log);
    form->addRow(m_preview);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Write and run sweep"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SweepSettingDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    for (QLineEdit* edit : {m_list, m_from, m_to})
        connect(edit, &QLineEdit::textChanged, this, &SweepSettingDialog::preview);
    connect(m_steps, &QSpinBox::valueChanged, this, &SweepSettingDialog::preview);
    connect(m_log, &QCheckBox::toggled, this, &SweepSettingDialog::preview);
    connect(m_listMode, &QRadioButton::toggled, this, &SweepSettingDialog::preview);
    preview();
}

std::vector<std::string> SweepSettingDialog::values() const {
    if (m_listMode->isChecked()) {
        std::vector<std::string> values = sweepListValues(m_list->text().toStdString());
        if (values.empty())
            throw Error(ErrorKind::Validation, "list at least one value");
        return values;
    }
    return sweepRangeValues(m_from->text().toStdString(), m_to->text().toStdString(),
                            m_steps->value(), m_log->isChecked());
}

void SweepSettingDialog::preview() {
    try {
        QStringList shown;
        for (const std::string& v : values())
            shown << QString::fromStdString(v);
        m_preview->setText(tr("%n value(s): %1", nullptr, static_cast<int>(shown.size()))
                               .arg(shown.join(QStringLiteral(", "))));
        m_preview->setStyleSheet(QString());
    } catch (const std::exception& e) {
        m_preview->setText(QString::fromStdString(e.what()));
        m_preview->setStyleSheet(QStringLiteral("color: #c62828;"));
    }
}

void SweepSettingDialog::accept() {
    try {
        (void)values();
    } catch (const std::exception&) {
        preview(); // says why
        return;
    }
    QDialog::accept();
}

} // namespace astrolabe::gui

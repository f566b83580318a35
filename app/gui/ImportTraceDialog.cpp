#include "gui/ImportTraceDialog.h"

#include "core/Error.h"
#include "gui/ProjectDocument.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace astrolabe::gui {
namespace {

/// "train" for train.json, "chakra" for chakra.0.et, "w" for w.json.gz.
QString traceStem(const QString& path) {
    QString name = QFileInfo(path).fileName();
    for (const QString& suffix :
         {QStringLiteral(".gz"), QStringLiteral(".json"), QStringLiteral(".et")})
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    bool rank = false;
    if (dot > 0)
        (void)name.mid(dot + 1).toInt(&rank);
    return rank ? name.left(dot) : name;
}

} // namespace

ImportTraceDialog::ImportTraceDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent)
    , m_document(document)
    , m_path(new QLineEdit(this))
    , m_report(new QPlainTextEdit(this))
    , m_note(new QLabel(this))
    , m_use(new QPushButton(tr("&Use as Workload and Run"), this)) {
    setWindowTitle(tr("Import Trace"));
    // The box takes a typed or pasted path too (Enter reads it; "A + B" reads a pair): it looks
    // like a field, so it is one.
    m_path->setPlaceholderText(tr("a Chakra ET (.et, .json), a PyTorch profiler trace (.json), or "
                                  "an execution trace + its profiler trace; Enter reads it"));
    m_path->setClearButtonEnabled(true);
    connect(m_path, &QLineEdit::returnPressed, this, [this] {
        const QString text = m_path->text().trimmed();
        const QStringList pair = text.split(QStringLiteral(" + "));
        if (pair.size() == 2)
            readPair(pair[0].trimmed(), pair[1].trimmed());
        else if (!text.isEmpty())
            read(text);
    });
    auto* browse = new QPushButton(tr("&Choose\u2026"), this);
    connect(browse, &QPushButton::clicked, this, &ImportTraceDialog::chooseFile);
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setPlaceholderText(tr("What was read, and what had to be assumed, appears here."));
    m_report->setMinimumSize(640, 320);
    m_note->setWordWrap(true);
    connect(m_use, &QPushButton::clicked, this, [this] {
        if (useAsWorkload())
            accept();
    });

    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_use, QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fileRow);
    layout->addWidget(m_report, 1);
    layout->addWidget(m_note);
    layout->addWidget(buttons);
    updateButtons();
}

ImportTraceDialog::~ImportTraceDialog() {
    if (m_worker.joinable())
        m_worker.join();
}

void ImportTraceDialog::chooseFile() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Import Trace (two files: a PyTorch execution trace and its profiler trace)"), {},
        tr("Traces (*.et *.json *.gz);;Chakra ET (*.et);;JSON (*.json);;All files (*)"));
    if (paths.size() == 1)
        read(paths.front());
    else if (paths.size() == 2)
        readPair(paths[0], paths[1]);
    else if (!paths.isEmpty())
        m_report->setPlainText(tr("Choose one trace, or two files: a PyTorch execution trace and "
                                  "its profiler trace."));
}

bool ImportTraceDialog::read(const QString& path) {
    return start(path, [file = path.toStdString()] { return importTraces(file); });
}

bool ImportTraceDialog::readPair(const QString& first, const QString& second) {
    return start(first + QStringLiteral(" + ") + second,
                 [a = first.toStdString(), b = second.toStdString()] {
                     if (isExecutionTrace(a))
                         return importLinkedTraces(a, b);
                     if (isExecutionTrace(b))
                         return importLinkedTraces(b, a);
                     throw Error(ErrorKind::Input,
                                 "neither file is a PyTorch execution trace: two files are an "
                                 "execution trace (ExecutionTraceObserver's JSON) and the "
                                 "profiler trace of the same run",
                                 SourceLocation{a + " + " + b, 0, 0, {}});
                 });
}

bool ImportTraceDialog::start(const QString& shown, std::function<ImportedTraces()> work) {
    if (m_reading)
        return false;
    if (m_worker.joinable())
        m_worker.join();
    m_reading = true;
    m_imported.reset();
    m_path->setText(shown);
    m_source = shown.section(QStringLiteral(" + "), 0, 0); // names the written traces
    m_report->setPlainText(tr("Reading %1\u2026").arg(shown));
    updateButtons();
    m_worker = std::thread([this, work = std::move(work)] {
        std::shared_ptr<const ImportedTraces> imported;
        QString error;
        try {
            imported = std::make_shared<const ImportedTraces>(work());
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        // The dialog outlives the worker (its destructor joins), so `this` is still there.
        QMetaObject::invokeMethod(
            this, [this, imported, error] { showResult(imported, error); }, Qt::QueuedConnection);
    });
    return true;
}

void ImportTraceDialog::showResult(std::shared_ptr<const ImportedTraces> imported,
                                   const QString& error) {
    m_reading = false;
    m_imported = std::move(imported);
    if (!m_imported) {
        m_report->setPlainText(error);
    } else {
        QString text = tr("%1\n").arg(QString::fromUtf8(traceFormatName(m_imported->format)));
        for (const std::string& line : m_imported->report)
            text += QString::fromStdString(line) + QLatin1Char('\n');
        const int npus = m_document->spec().platform.npuCount();
        if (static_cast<int>(m_imported->ranks.size()) != npus)
            text += (m_imported->ranks.size() == 1
                         ? tr("The trace has one rank and the platform %2 NPUs: every NPU will "
                              "run its trace.\n")
                         : tr("The trace has %1 ranks and the platform %2 NPUs: every NPU will "
                              "run rank 0's trace.\n")
                               .arg(m_imported->ranks.size()))
                        .arg(npus);
        if (m_imported->needsReplay)
            text += tr("Communication sizes are not in the trace: the run replays every "
                       "measured duration (system.replay-only).\n");
        m_report->setPlainText(text);
    }
    updateButtons();
    emit readFinished(m_imported != nullptr);
}

bool ImportTraceDialog::useAsWorkload() {
    if (!m_imported || m_document->path().isEmpty())
        return false;
    const QDir folder = QFileInfo(m_document->path()).absoluteDir();
    const QString traces = folder.filePath(QStringLiteral("traces"));
    const QString prefix = QDir(traces).filePath(traceStem(m_source));
    QString wrote;
    try {
        if (!QDir().mkpath(traces))
            throw Error(ErrorKind::Input, "cannot make the folder",
                        SourceLocation{traces.toStdString(), 0, 0, {}});
        wrote = QString::fromStdString(writeImportedTraces(*m_imported, prefix.toStdString(),
                                                           m_document->spec().platform.npuCount()));
        m_report->appendPlainText(wrote);
    } catch (const std::exception& e) {
        m_report->appendPlainText(QString::fromStdString(e.what()));
        return false;
    }
    const bool replay = m_imported->needsReplay;
    m_document->applyEdit({QStringLiteral("workload.traces"),
                           tr("Import trace %1").arg(QFileInfo(m_source).fileName()),
                           [prefix, replay](SimulationSpec& spec) {
                               spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
                               spec.workload.tracePrefix = prefix.toStdString();
                               if (replay)
                                   spec.system.replayOnly = true;
                           }});
    m_written = prefix;
    emit imported(tr("Imported %1 as the workload%2 (%3); Edit > Undo takes it back")
                      .arg(QFileInfo(m_source).fileName(),
                           replay ? tr(", replaying its measured durations") : QString(),
                           wrote.trimmed()));
    emit runRequested();
    return true;
}

QString ImportTraceDialog::reportText() const {
    return m_report->toPlainText();
}

void ImportTraceDialog::updateButtons() {
    const bool saved = !m_document->path().isEmpty();
    m_use->setEnabled(!m_reading && m_imported && saved);
    m_note->setText(saved ? tr("The traces are written to the project's traces/ folder.")
                          : tr("Save the project first: the traces are written beside it."));
}

} // namespace astrolabe::gui

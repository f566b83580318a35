#pragma once
// File > Import Trace… (docs/real-traces.md): choose a trace as real jobs write it (a Chakra ET
// as PyTorch's converter leaves it, Chakra's JSON, a PyTorch profiler trace, or PyTorch's
// execution trace together with its profiler trace: two files chosen at once), read it off the
// GUI thread with the same importTraces() the CLI runs, see what was read and what had to be
// assumed, and make it the project's workload: the traces are written beside the project
// (traces/NAME.i.et), the workload and, for a profiler trace, replay of measured durations are
// set as one undoable step, and a run starts so the per-NPU timeline shows the trace.

#include "trace/TraceImport.h"

#include <QDialog>
#include <functional>
#include <memory>
#include <thread>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace astrolabe::gui {

class ProjectDocument;

class ImportTraceDialog : public QDialog {
    Q_OBJECT
public:
    ImportTraceDialog(ProjectDocument* document, QWidget* parent = nullptr);
    ~ImportTraceDialog() override; ///< waits for a read in progress

    /// Reads `path` off the GUI thread; false while a read runs.
    bool read(const QString& path);
    /// Reads two files off the GUI thread: a PyTorch execution trace and its profiler trace, in
    /// either order, linked into one rank's trace; false while a read runs.
    bool readPair(const QString& first, const QString& second);
    /// Writes the traces beside the project and sets the workload (one undoable step); false
    /// without a trace read or a saved project. Emits runRequested.
    bool useAsWorkload();
    QString reportText() const;
    bool isReading() const { return m_reading; }
    /// What useAsWorkload wrote: the traces' prefix.
    const QString& writtenPrefix() const { return m_written; }

signals:
    void readFinished(bool ok);
    /// The project's workload is the imported trace: run it.
    void runRequested();
    /// What useAsWorkload did, one line for the Log: the file, what was written, the undo.
    void imported(const QString& summary);

private:
    void chooseFile();
    /// Starts `work` on the worker thread, showing `shown` as the file read.
    bool start(const QString& shown, std::function<ImportedTraces()> work);
    void showResult(std::shared_ptr<const ImportedTraces> imported, const QString& error);
    void updateButtons();

    ProjectDocument* m_document;
    QLineEdit* m_path;
    QPlainTextEdit* m_report;
    QLabel* m_note;
    QPushButton* m_use;
    std::thread m_worker;
    bool m_reading = false;
    std::shared_ptr<const ImportedTraces> m_imported;
    QString m_written;
    QString m_source; ///< the (first) file read: the written traces are named after it
};

} // namespace astrolabe::gui

#pragma once
// Tools > Calibrate from nccl-tests… (docs/calibration.md): choose nccl-tests output files and
// the dimension they exercised, fit (engine/calibrate, the same calibrate() the CLI runs, off the
// GUI thread: a worker thread whose result arrives by queued call), read the fit and its held-out
// errors with the chart of measured and predicted bus bandwidth, and apply the fitted settings
// to the project as one undoable step; save the chart as SVG or PNG.

#include "calibrate/Calibration.h"

#include <QDialog>
#include <memory>
#include <optional>
#include <thread>

class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

class QChartView;

namespace astrolabe::gui {

class ProjectDocument;

class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    CalibrationDialog(ProjectDocument* document, QWidget* parent = nullptr);
    ~CalibrationDialog() override; ///< waits for a running fit (well under a second)

    void addFiles(const QStringList& paths);
    /// The platform dimension the files exercised (0 = intra-node, the last = inter-node).
    void setDimension(int dimension);
    /// Reads the files and fits off the GUI thread; false while a fit runs or with no files.
    bool fit();
    /// Writes the fitted settings into the project as one undoable step; false without a fit.
    bool applyToProject();
    /// Writes the chart of the fit shown, the same chart as `calibrate --plot` draws: PNG when
    /// `path` ends in .png (twice the SVG's size), else SVG. False, with the reason in `error`,
    /// without a fit or when the file cannot be written.
    bool saveChart(const QString& path, QString* error = nullptr);
    QString reportText() const;
    /// The line under the report: what the last Fit or Apply did ("Applied ...", "The fit
    /// failed ..."), empty before.
    QString statusText() const;
    bool isFitting() const { return m_fitting; }

signals:
    /// The fit is shown (`ok`), or its error is (`ok` false).
    void fitted(bool ok);
    /// The fit was written into the project (one undo step); `summary` says what changed.
    void applied(const QString& summary);

private:
    void chooseFiles();
    void chooseChartFile();
    void showResult(std::shared_ptr<const Calibration> calibration, const QString& error);
    void showChart(const Calibration& calibration);
    void clearChart();
    /// Shows a failed fit: its message in the report and the status line, no chart.
    void fail(const QString& error);
    /// The report, its notes and the status line for the fit and the chosen dimension; false
    /// (after fail()) when the fit cannot be applied to it.
    bool showPreview();
    void setStatus(const QString& text, bool problem);
    void updateButtons();

    ProjectDocument* m_document;
    QListWidget* m_files;
    QComboBox* m_dimension;
    QPushButton* m_fit;
    QPushButton* m_apply;
    QPushButton* m_saveChart;
    QPlainTextEdit* m_report;
    QLabel* m_status;
    QChartView* m_chart;
    std::thread m_worker;
    bool m_fitting = false;
    bool m_applied = false; ///< this fit is applied to this dimension already
    std::shared_ptr<const Calibration> m_result;
};

} // namespace astrolabe::gui

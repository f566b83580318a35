#pragma once
// Model builder: a preset, the model / training / parallelism / compute fields, and the live
// figures (parameters, FLOPs against the closed forms, memory per NPU, bubble) recomputed as
// the user types. Figures are closed forms (milliseconds even for 16k NPUs), so they run on the
// GUI thread; generating the traces is left to the application (generateRequested).

#include "workload/generate/GeneratorSpec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace astrolabe::widgets {

class MemoryBar;

class ModelBuilderPanel : public QWidget {
    Q_OBJECT

public:
    explicit ModelBuilderPanel(QWidget* parent = nullptr);

    generate::GeneratorSpec spec() const;
    void setSpec(const generate::GeneratorSpec& spec);
    /// Loads a preset by name ("gpt3-175b", ...); false when unknown.
    bool applyPreset(const QString& name);

    /// The figures as shown, or the validation errors.
    QString figuresText() const;
    bool figuresValid() const { return m_valid; }
    bool outOfMemory() const { return m_outOfMemory; }
    const MemoryBar* memoryBar() const { return m_memoryBar; }
    /// The application says what the button does with the spec ("Generate and run").
    void setGenerateText(const QString& text, const QString& toolTip = {});

signals:
    void specChanged();
    /// The user changed the field labelled `field` (not setSpec() or a preset loaded by code);
    /// emitted before specChanged(), when spec() already holds the new value. The application
    /// records such edits as undo steps named after the field.
    void fieldEdited(const QString& field);
    void generateRequested(const astrolabe::generate::GeneratorSpec& spec);

private:
    QSpinBox* addInt(QFormLayout* form, const QString& label, int min, int max,
                     const QString& tip = {});
    QDoubleSpinBox* addDouble(QFormLayout* form, const QString& label, double min, double max,
                              int decimals, const QString& suffix);
    QCheckBox* addCheck(QFormLayout* form, const QString& label);
    void refresh();
    void onFieldEdited(const QString& field);

    QComboBox* m_preset = nullptr;
    // Model.
    QSpinBox *m_layers, *m_hidden, *m_heads, *m_kvHeads, *m_ffn, *m_vocabulary, *m_sequence;
    QCheckBox* m_swiglu;
    QSpinBox *m_experts, *m_topK, *m_sharedExperts, *m_expertFfn;
    // Training.
    QSpinBox *m_microBatch, *m_microBatches;
    QComboBox* m_bytes;
    QCheckBox* m_flash;
    // Parallelism.
    QSpinBox *m_tp, *m_pp, *m_dp, *m_ep, *m_virtualStages, *m_bucketMiB;
    QComboBox *m_schedule, *m_zero, *m_placement;
    QCheckBox *m_sp, *m_recompute;
    // Compute.
    QDoubleSpinBox *m_peak, *m_hbmBandwidth, *m_efficiency, *m_hbmCapacity;

    QLabel* m_npus = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_figures = nullptr;
    MemoryBar* m_memoryBar = nullptr;
    QPushButton* m_generate = nullptr;

    /// Fields a preset sets but the form does not show (MLA ranks, biases, DLRM tables...).
    generate::GeneratorSpec m_base;
    bool m_loading = false;
    bool m_valid = false;
    bool m_outOfMemory = false;
};

} // namespace astrolabe::widgets

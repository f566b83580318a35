#pragma once
// Model builder: a preset, the model / training / parallelism / compute fields, and the live
// figures (parameters, FLOPs against the closed forms, memory per NPU, bubble) recomputed as
// the user types. Figures are closed forms (milliseconds even for 16k NPUs), so they run on the
// GUI thread; generating the traces is left to the application (generateRequested).
//
// The builder follows the project: setPlatformNpus() fits tp x pp x dp (x ep) to the platform's
// NPU count (generate::fitParallelism). Fields the user edits are remembered: choosing another
// preset changes only the fields the user has not touched, until "Reset to preset". The spec's
// model name is the model actually built: the preset's name, or "custom (from <preset>)" once an
// architecture field differs from it.

#include "generate/GeneratorSettings.h"

#include <QHash>
#include <QSet>
#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace astrolabe::widgets {

class MemoryBar;

class ModelBuilderPanel : public QWidget {
    Q_OBJECT

public:
    explicit ModelBuilderPanel(QWidget* parent = nullptr);

    generate::GeneratorSpec spec() const;
    void setSpec(const generate::GeneratorSpec& spec);
    /// Loads a preset by name ("gpt3-175b", ...); false when unknown. Fields the user has
    /// edited keep their values; with a platform set, the parallelism is then fitted to it.
    bool applyPreset(const QString& name);
    /// Forgets the user's edits and loads the current preset as published ("Reset to preset").
    void resetToPreset();
    /// Takes the Compute fields' peak, HBM bandwidth and capacity from an accelerator of the
    /// library (hardware/Accelerator.h) by name ("h100"); "" keeps the preset's. Returns false
    /// for an unknown name. A preset loaded later keeps the accelerator's values; the fields
    /// stay editable (an edit overrides the accelerator's figure).
    bool setAccelerator(const QString& name);
    QString accelerator() const;
    /// Labels of the fields the user has edited since the last reset ("Layers", ...).
    QStringList touchedFields() const;

    /// The open project's platform size (0: no project). When it changes, tp, pp, dp and ep are
    /// fitted to it, keeping the current tp and pp when they still divide the count.
    void setPlatformNpus(int npus);
    int platformNpus() const { return m_platformNpus; }
    /// Why the last fit chose its split, or why none fits ("" before any platform is set).
    QString fitReason() const { return m_fitReason; }

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
    void refresh();
    void onFieldEdited(const QString& field, QWidget* widget);
    void fitToPlatform();
    /// Shows the chosen accelerator's figures in the Compute fields. With `overEdits`, fields
    /// the user edited take them too (the user chose the part); otherwise edits are kept.
    void applyAccelerator(bool overEdits);
    QString platformLine(const generate::GeneratorSpec& spec) const;

    QComboBox* m_preset = nullptr;
    QComboBox* m_gpu = nullptr; ///< item data: the library's name; "" = the preset's figures
    /// The fields of generate::generatorSettings(), in table order; the settings are static.
    struct Field {
        const generate::GeneratorSetting* setting;
        QWidget* widget;
        bool transformerOnly; ///< disabled for DLRM / ResNet
    };
    std::vector<Field> m_fields;

    QLabel* m_npus = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_figures = nullptr;
    MemoryBar* m_memoryBar = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_resetPreset = nullptr;

    /// Fields a preset sets but the form does not show (MLA ranks, biases, DLRM tables...).
    generate::GeneratorSpec m_base;
    /// The model the form started from (a preset's or setSpec()'s): names the model built.
    generate::ModelSpec m_origin;
    /// Fields edited by the user (not by setSpec(), a preset or a fit), by widget.
    QSet<QWidget*> m_touched;
    QHash<QWidget*, QString> m_labels; ///< every field's label, for touchedFields()
    int m_platformNpus = 0;
    QString m_fitReason;
    bool m_loading = false;
    bool m_valid = false;
    bool m_outOfMemory = false;
};

} // namespace astrolabe::widgets

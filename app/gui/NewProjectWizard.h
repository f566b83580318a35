#pragma once
// File > New Project: pick a preset, name the project, read what it contains.

#include "config/SimulationSpec.h"

#include <QWizard>

class QLabel;
class QLineEdit;
class QListWidget;

namespace astrolabe::gui {

class NewProjectWizard : public QWizard {
    Q_OBJECT
public:
    explicit NewProjectWizard(QWidget* parent = nullptr);

    /// Selects a preset by id ("quickstart", "hgx-h100", "torus-2d"); false when unknown.
    bool selectPreset(const QString& id);
    QString presetId() const;
    /// The chosen preset with the chosen name.
    SimulationSpec spec() const;

private:
    QListWidget* m_presets;
    QLabel* m_description;
    QLineEdit* m_name;
    QLabel* m_summary;
};

} // namespace astrolabe::gui

#pragma once
// File > New Project: pick a preset or one of the example projects from a gallery of pictures
// of their networks, name the project, read what it contains.

#include "spec/SimulationSpec.h"

#include <QWizard>
#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;

namespace astrolabe::gui {

class NewProjectWizard : public QWizard {
    Q_OBJECT
public:
    explicit NewProjectWizard(QWidget* parent = nullptr);

    /// Selects a preset by id ("quickstart", "hgx-h100", "torus-2d") or an example by
    /// "example:<path under projects/>"; false when unknown.
    bool selectPreset(const QString& id);
    QString presetId() const;
    /// The chosen preset with the chosen name.
    SimulationSpec spec() const;

    /// How many presets and examples the gallery offers.
    int choiceCount() const { return static_cast<int>(m_choices.size()); }

private:
    struct Choice {
        QString id;
        QString title;
        QString description;
        SimulationSpec spec;
    };
    void addExamples();

    std::vector<Choice> m_choices; ///< the presets, then the examples, in the gallery's order
    QListWidget* m_presets;
    QLabel* m_description;
    QLineEdit* m_name;
    QLabel* m_summary;
};

} // namespace astrolabe::gui

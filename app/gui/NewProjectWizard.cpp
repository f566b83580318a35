#include "gui/NewProjectWizard.h"

#include "gui/Presets.h"
#include "gui/RunStore.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace astrolabe::gui {

NewProjectWizard::NewProjectWizard(QWidget* parent)
    : QWizard(parent)
    , m_presets(new QListWidget)
    , m_description(new QLabel)
    , m_name(new QLineEdit)
    , m_summary(new QLabel) {
    setWindowTitle(tr("New Project"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setMinimumSize(560, 420);

    auto* choose = new QWizardPage;
    choose->setTitle(tr("Start from a preset"));
    choose->setSubTitle(tr("Every setting can be changed afterwards."));
    auto* chooseLayout = new QVBoxLayout(choose);
    for (const Preset& p : presets()) {
        auto* item = new QListWidgetItem(p.title, m_presets);
        item->setData(Qt::UserRole, p.id);
        item->setToolTip(p.description);
    }
    m_description->setWordWrap(true);
    m_description->setMinimumHeight(60);
    chooseLayout->addWidget(m_presets);
    chooseLayout->addWidget(m_description);
    addPage(choose);

    auto* name = new QWizardPage;
    name->setTitle(tr("Name the project"));
    auto* nameLayout = new QFormLayout(name);
    nameLayout->addRow(tr("&Name:"), m_name);
    m_summary->setWordWrap(true);
    nameLayout->addRow(tr("Contents:"), m_summary);
    addPage(name);

    connect(m_presets, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= static_cast<int>(presets().size()))
            return;
        const Preset& p = presets()[static_cast<size_t>(row)];
        m_description->setText(p.description);
        m_name->setText(QString::fromStdString(p.spec.name));
        m_summary->setText(keySettings(p.spec));
    });
    m_presets->setCurrentRow(0);
}

bool NewProjectWizard::selectPreset(const QString& id) {
    for (int row = 0; row < m_presets->count(); ++row)
        if (m_presets->item(row)->data(Qt::UserRole).toString() == id) {
            m_presets->setCurrentRow(row);
            return true;
        }
    return false;
}

QString NewProjectWizard::presetId() const {
    const QListWidgetItem* item = m_presets->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

SimulationSpec NewProjectWizard::spec() const {
    SimulationSpec s = preset(presetId()).spec;
    if (!m_name->text().trimmed().isEmpty())
        s.name = m_name->text().trimmed().toStdString();
    return s;
}

} // namespace astrolabe::gui

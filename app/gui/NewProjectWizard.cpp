#include "gui/NewProjectWizard.h"

#include "common/InterfaceScale.h"
#include "gui/Examples.h"
#include "gui/Presets.h"
#include "gui/ProjectIo.h"
#include "gui/RunStore.h"
#include "topology/PlatformThumbnail.h"

#include <QDir>
#include <QFormLayout>
#include <QIcon>
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
    using widgets::InterfaceScale;
    setMinimumSize(InterfaceScale::px(720), InterfaceScale::px(560));

    auto* choose = new QWizardPage;
    choose->setTitle(tr("Start from a preset or an example"));
    choose->setSubTitle(tr("Every setting can be changed afterwards."));
    auto* chooseLayout = new QVBoxLayout(choose);
    for (const Preset& p : presets())
        m_choices.push_back({p.id, p.title, p.description, p.spec});
    addExamples();
    // A gallery: a picture of each platform's network above its name.
    const QSize thumbnail(InterfaceScale::px(144), InterfaceScale::px(96));
    m_presets->setViewMode(QListView::IconMode);
    m_presets->setMovement(QListView::Static);
    m_presets->setResizeMode(QListView::Adjust);
    m_presets->setWordWrap(true);
    m_presets->setIconSize(thumbnail);
    m_presets->setGridSize(thumbnail + QSize(InterfaceScale::px(40), InterfaceScale::px(48)));
    m_presets->setObjectName(QStringLiteral("presetGallery"));
    for (const Choice& c : m_choices) {
        auto* item = new QListWidgetItem(c.title, m_presets);
        item->setData(Qt::UserRole, c.id);
        item->setToolTip(c.description);
        item->setIcon(QIcon(QPixmap::fromImage(widgets::platformThumbnail(
            c.spec.platform, c.spec.memory, thumbnail * devicePixelRatio()))));
    }
    m_description->setWordWrap(true);
    m_description->setMinimumHeight(InterfaceScale::px(60));
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
        if (row < 0 || row >= static_cast<int>(m_choices.size()))
            return;
        const Choice& c = m_choices[static_cast<size_t>(row)];
        m_description->setText(c.description);
        m_name->setText(QString::fromStdString(c.spec.name));
        m_summary->setText(keySettings(c.spec));
    });
    m_presets->setCurrentRow(0);
}

void NewProjectWizard::addExamples() {
    const QString directory = examples::directory();
    const ProjectIo io = defaultProjectIo();
    for (const QString& path : examples::projects(directory)) {
        try {
            SimulationSpec spec = io.load(path.toStdString(), nullptr);
            QString id = QStringLiteral("example:");
            id += QDir(directory).relativeFilePath(path);
            QString title = examples::title(path);
            title += tr(" (example)");
            m_choices.push_back({id, title, examples::description(path), std::move(spec)});
        } catch (const std::exception&) {
            // An example that does not load is left out of the gallery; Help > Examples opens
            // it and says why.
        }
    }
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
    const int row = m_presets->currentRow();
    SimulationSpec s = row >= 0 && row < static_cast<int>(m_choices.size())
                           ? m_choices[static_cast<size_t>(row)].spec
                           : preset(presetId()).spec;
    if (!m_name->text().trimmed().isEmpty())
        s.name = m_name->text().trimmed().toStdString();
    return s;
}

} // namespace astrolabe::gui

#include "gui/ImportAstraDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace astrolabe::gui {

ImportAstraDialog::ImportAstraDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Import ASTRA-sim Configuration"));
    auto* grid = new QGridLayout(this);
    auto* intro = new QLabel(tr("Choose the files you pass to ASTRA-sim 2.x. Network and system "
                                "are required; the others are optional. Values are converted "
                                "with ASTRA-sim's own units (its GB/s is 2<sup>30</sup> bytes "
                                "per second)."),
                             this);
    intro->setWordWrap(true);
    grid->addWidget(intro, 0, 0, 1, 3);
    m_network = addPathRow(tr("&Network (YAML):"), tr("--network-configuration"),
                           tr("Network YAML (*.yml *.yaml)"), false);
    m_system = addPathRow(tr("&System (JSON):"), tr("--system-configuration"),
                          tr("System JSON (*.json)"), false);
    m_memory = addPathRow(tr("&Remote memory (JSON):"), tr("--remote-memory-configuration"),
                          tr("Memory JSON (*.json)"), false);
    m_workload = addPathRow(tr("&Workload prefix:"),
                            tr("--workload-configuration: NPU i reads <prefix>.i.et"),
                            tr("Chakra traces (*.et)"), true);
    m_commGroups = addPathRow(tr("&Comm groups (JSON):"), tr("--comm-group-configuration"),
                              tr("Comm group JSON (*.json)"), false);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    grid->addWidget(m_buttons, grid->rowCount(), 0, 1, 3);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, sizeHint().height());
    updateOk();
}

QLineEdit* ImportAstraDialog::addPathRow(const QString& label, const QString& tip,
                                         const QString& filter, bool prefix) {
    auto* grid = static_cast<QGridLayout*>(layout());
    const int row = grid->rowCount();
    auto* edit = new QLineEdit(this);
    edit->setToolTip(tip);
    auto* text = new QLabel(label, this);
    text->setBuddy(edit);
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    grid->addWidget(text, row, 0);
    grid->addWidget(edit, row, 1);
    grid->addWidget(browse, row, 2);
    connect(edit, &QLineEdit::textChanged, this, &ImportAstraDialog::updateOk);
    connect(browse, &QPushButton::clicked, this, [this, edit, filter, prefix] {
        QString path =
            QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text(), filter);
        if (path.isEmpty())
            return;
        if (prefix) // "dir/allreduce.0.et" -> "dir/allreduce"
            path = path.section(u'.', 0, -3);
        edit->setText(path);
    });
    return edit;
}

void ImportAstraDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!m_network->text().trimmed().isEmpty() &&
                     !m_system->text().trimmed().isEmpty());
}

AstraImportRequest ImportAstraDialog::request() const {
    return {m_network->text().trimmed(), m_system->text().trimmed(), m_memory->text().trimmed(),
            m_workload->text().trimmed(), m_commGroups->text().trimmed()};
}

void ImportAstraDialog::setRequest(const AstraImportRequest& request) {
    m_network->setText(request.networkYaml);
    m_system->setText(request.systemJson);
    m_memory->setText(request.remoteMemoryJson);
    m_workload->setText(request.workloadPrefix);
    m_commGroups->setText(request.commGroupJson);
}

} // namespace astrolabe::gui

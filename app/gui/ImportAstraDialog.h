#pragma once
// File > Import ASTRA-sim configuration: the files of one ASTRA-sim 2.x invocation.

#include "gui/ProjectIo.h"

#include <QDialog>

class QDialogButtonBox;
class QLineEdit;

namespace astrolabe::gui {

class ImportAstraDialog : public QDialog {
    Q_OBJECT
public:
    explicit ImportAstraDialog(QWidget* parent = nullptr);

    AstraImportRequest request() const;
    void setRequest(const AstraImportRequest& request);

private:
    QLineEdit* addPathRow(const QString& label, const QString& tip, const QString& filter,
                          bool prefix);
    void updateOk();

    QLineEdit* m_network;
    QLineEdit* m_system;
    QLineEdit* m_memory;
    QLineEdit* m_workload;
    QLineEdit* m_commGroups;
    QDialogButtonBox* m_buttons;
};

} // namespace astrolabe::gui

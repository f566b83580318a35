#pragma once
// The building blocks a student drags onto the dimension stack: Ring, FullyConnected, Switch,
// and presets made of several dimensions (2-D mesh, 2-D and 3-D tori). Each item carries its
// dimensions as an application/x-astrolabe-block payload; double-click appends it instead.
#include "spec/PlatformSpec.h"

#include <QListWidget>
#include <vector>

namespace astrolabe::widgets {

class BlockPalette : public QListWidget {
    Q_OBJECT
public:
    explicit BlockPalette(QWidget* parent = nullptr);

    std::vector<DimensionSpec> dimensionsOf(const QListWidgetItem* item) const;
    /// The item whose text starts with `label`, or nullptr (tests and shortcuts use it).
    QListWidgetItem* findBlock(const QString& label) const;
    /// The payload of the last drag started from the palette (a headless test cannot complete a
    /// platform drag; it delivers this payload to the drop target itself).
    const QByteArray& lastDragPayload() const { return m_lastDragPayload; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void blockActivated(const std::vector<astrolabe::DimensionSpec>& dimensions);

protected:
    void changeEvent(QEvent* event) override;
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override;
    QStringList mimeTypes() const override;
    void startDrag(Qt::DropActions supportedActions) override;

private:
    /// Icon and cell sizes for the interface scale and font of the moment.
    void fitGrid();
    void addBlock(const QString& label, const QString& tip, std::vector<DimensionSpec> dims,
                  bool torus = true);
    QByteArray m_lastDragPayload;
};

} // namespace astrolabe::widgets

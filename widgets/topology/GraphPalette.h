#pragma once
// The graph editor's palette: the graph generators (engine/graph/GraphGenerators.h) as items,
// each with its parameters (size, bandwidth, latency, and the second bandwidth/latency of
// dragonflies' global links and rail links). "Generate" builds the graph; a parameter out of
// range is reported under the form with the engine's own message.
#include "graph/GraphGenerators.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;

namespace astrolabe::widgets {

class GraphPalette : public QWidget {
    Q_OBJECT
public:
    explicit GraphPalette(QWidget* parent = nullptr);

    QListWidget* generatorList() const { return m_list; }
    QLineEdit* sizeEdit() const { return m_size; }
    /// The generator as the form describes it; throws astrolabe::Error on unreadable text.
    GraphGeneratorSpec spec() const;
    /// Builds the graph of the form; false (and the reason shown) when it cannot.
    bool generate();

signals:
    void generated(const astrolabe::GraphSpec& graph);

private:
    QListWidget* m_list;
    QLineEdit* m_size;
    QLineEdit* m_bandwidth;
    QLineEdit* m_latency;
    QLineEdit* m_secondBandwidth;
    QLineEdit* m_secondLatency;
    QLabel* m_error;
};

} // namespace astrolabe::widgets

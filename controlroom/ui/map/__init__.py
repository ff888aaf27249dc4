"""The live map: the pyqtgraph view, its layers, labels and legend, and placing a map of the field."""

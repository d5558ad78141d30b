"""Reading a puzzle from a photo: find the grid, straighten it, read each cell.

grid.py finds and warps the grid, cells.py cuts the cells and normalises their digits,
model.py classifies them with a small committed model that train.py rebuilds from the
fonts Debian ships, synth.py makes synthetic photos for the tests and the bench, and
read.py is the pipeline. Heavy modules (cv2, numpy) are imported only here, never by
the command line at start-up.
"""

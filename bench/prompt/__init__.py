"""The prompt the model reads, measured per turn of a scripted conversation (issue 27, point 7)."""

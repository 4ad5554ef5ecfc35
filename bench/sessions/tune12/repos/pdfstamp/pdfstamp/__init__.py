"""pdfstamp — post-processing for PDFs: watermarks, metadata scrubbing, batch runs."""

__version__ = "0.4.1"

"""The sample match files of nardy_analysis (installed as package data; the folder is
``nardy_analysis.sample_folder()``)."""

"""The notation layer: match text read into records and written back (.mat, SGF); no rules."""

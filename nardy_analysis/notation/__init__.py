"""The notation layer: match text read into records (mat), the records, text written (writer)."""

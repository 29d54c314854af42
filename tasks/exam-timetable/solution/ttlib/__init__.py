"""ttlib: reading exam-timetabling instances, checking timetables and searching for good ones."""

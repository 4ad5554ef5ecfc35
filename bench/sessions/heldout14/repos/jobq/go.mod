module github.com/acme/jobq

go 1.22

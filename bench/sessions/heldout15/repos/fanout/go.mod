module github.com/ticketdesk/fanout

go 1.21

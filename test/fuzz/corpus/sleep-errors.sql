\sleep 10 hours
